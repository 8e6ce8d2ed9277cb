// The header is all there is (a static inline function); SwiftPM wants a source file in a C target.
#include "CPrefetch.h"
