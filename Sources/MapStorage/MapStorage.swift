// MapStorage: see ARCHITECTURE.md. (placeholder until the module lands)
