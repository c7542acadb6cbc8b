// How a profile's function names are shown: demangled (names/Demangle.h) and with template arguments collapsed
// (names/TemplateArguments.h). Both are steps of reading. One value for the CLI (--demangle, --collapse-templates,
// common to every verb that reads) and the window (View > Demangle, View > Collapse Template Arguments).
#pragma once

#include "io/ReadOptions.h"

namespace qflame {

struct NameOptions {
    DemangleMode demangle = DemangleMode::Simple;   // pprof's default, the CLI's and the window's
    bool collapseTemplates = false;                 // off, as pprof

    friend bool operator==(const NameOptions &, const NameOptions &) = default;

    // A read's options that show names so (the rest of `options` unchanged).
    ReadOptions appliedTo(ReadOptions options) const
    {
        options.demangle = demangle;
        options.collapseTemplates = collapseTemplates;
        return options;
    }
};

}   // namespace qflame
