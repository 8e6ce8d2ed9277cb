import Foundation
import MapDrawingCairo

/// Every subcommand, in the order `waymark help` lists them.
let commands: [any WaymarkCommand.Type] = [
    DemoCommand.self,
    SnapshotCommand.self,
    GeocodeCommand.self,
    DecodeTileCommand.self,
    RenderTestCommand.self,
    TilesCommand.self,
    StaticCommand.self,
    ServeCommand.self,
]

/// Prints the command list: to stdout when asked for (`help`), to stderr after a usage error.
@MainActor func printTopLevelUsage(toStandardOutput: Bool = false) {
    var text = "usage: waymark <command> [options]\n\ncommands:\n"
    for command in commands {
        text += "  \(command.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(command.summary)\n"
    }
    text += "\n`waymark <command> --help` shows a command's options.\n"
    (toStandardOutput ? FileHandle.standardOutput : FileHandle.standardError).write(Data(text.utf8))
}

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("waymark: \(message)\n".utf8))
    exit(code)
}

// Past a file-size limit (`ulimit -f`), write(2) fails with EFBIG instead of the process being killed by SIGXFSZ,
// so a write failure is reported and its temporary file removed (docs/BEHAVIOUR.md D24).
signal(SIGXFSZ, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first else {
    printTopLevelUsage()
    exit(2)
}
if name == "help" || name == "--help" || name == "-h" {
    printTopLevelUsage(toStandardOutput: true)
    exit(0)
}
guard let command = commands.first(where: { $0.name == name }) else {
    printTopLevelUsage()
    fail("unknown command '\(name)'", code: 2)
}
let rest = Array(arguments.dropFirst())
if rest.contains("--help") || rest.contains("-h") {
    print(command.usage)
    exit(0)
}
do {
    try command.run(rest)
    // The maps were written, but without labels (the backend printed one warning naming the font package).
    if command.drawsLabels && !FontAvailability.hasFonts { exit(3) }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("waymark \(command.name): \(error.description)\n\(command.usage)\n".utf8))
    exit(2)
} catch let error as RuntimeError {
    FileHandle.standardError.write(Data("waymark \(command.name): \(error.description)\n".utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("waymark \(command.name): \(error)\n".utf8))
    exit(1)
}
