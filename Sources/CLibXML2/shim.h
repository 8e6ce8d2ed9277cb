#pragma once
// Debian's libxml2 is built with ICU, so its encoding.h includes the system ICU headers. Their UErrorCode and
// swift-corelibs-foundation's own ICU copy (_FoundationICU) then meet in every module that imports both, and a cold
// build can fail with "'UErrorCode' has different definitions in different modules". Waymark never uses libxml2's
// ICU converters (they only add the last two pointers of xmlCharEncodingHandler, a struct libxml2 allocates), so the
// headers are read without them.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
