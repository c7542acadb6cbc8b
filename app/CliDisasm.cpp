// `qflame disasm REGEX FILE... [--binary PATH] [--tsv]` and
// `qflame diff BASE NEW --disasm REGEX [--binary-base PATH] [--binary-new PATH] [--tsv]`.
#include "CliDisasm.h"

#include "Cli.h"
#include "CliVerbs.h"
#include "disasm/Disasm.h"
#include "disasm/DisasmDiff.h"
#include "formats/ProfileInput.h"
#include "pprof/SampleTypes.h"
#include "report/DisasmReport.h"
#include "report/ShapeJson.h"
#include "tree/PprofRegex.h"

#include <QString>
#include <QStringList>

#include <cstdlib>
#include <iostream>

namespace qflame {

namespace {

struct DisasmArgs {
    std::vector<std::string> positional;
    std::optional<std::string> sample, maxSize, binary, binaryBase, binaryNew, disasm, noise;
    bool tsv = false, json = false;
};

DisasmArgs disasmArgsFrom(const ParsedArgs &p)
{
    DisasmArgs a;
    a.positional = p.positional();   // disasm's first is the regex, which may begin with '-'
    a.sample = p.value("--sample"), a.maxSize = p.value("--max-size"), a.binary = p.value("--binary");
    a.binaryBase = p.value("--binary-base"), a.binaryNew = p.value("--binary-new"), a.disasm = p.value("--disasm");
    a.noise = p.value("--noise");
    a.tsv = p.has("--tsv"), a.json = p.has("--json");
    if (a.tsv && a.json)
        usageError("choose one of --tsv and --json");
    return a;
}

// pprof's $PPROF_BINARY_PATH folders are searched too.
BinarySearch searchFor(const std::optional<std::string> &binary)
{
    BinarySearch s;
    if (binary)
        s.explicitPath = *binary;
    if (const char *env = std::getenv("PPROF_BINARY_PATH")) {
        const QStringList dirs = QString::fromLocal8Bit(env).split(QLatin1Char(':'), Qt::SkipEmptyParts);
        for (const QString &d : dirs)
            s.folders.push_back(d.toStdString());
    }
    return s;
}

void warn(const Disassembly &d)
{
    for (const std::string &w : d.warnings)
        std::cerr << "qflame: warning: " << w << "\n";
}

}   // namespace

int runDisasm(const ParsedArgs &argv)
{
    const DisasmArgs a = disasmArgsFrom(argv);
    if (a.positional.size() < 2)
        usageError("disasm takes a REGEX and one or more FILEs (several are merged)");
    const Regex re = compileRequiredPprofRegex(a.positional[0], "disasm");
    const ReadOptions read = readOptionsFor(a.maxSize);
    std::vector<std::shared_ptr<const Profile>> profiles;
    for (size_t i = 1; i < a.positional.size(); ++i) {
        profiles.push_back(readProfileFile(a.positional[i], read));
        leaveToProcessEnd(profiles.back());
    }
    const size_t type = chosenSampleType(*profiles.front(), a.sample);
    const Disassembly d = disassembleProfiles(profiles, type, re, searchFor(a.binary), a.positional[0]);
    warn(d);
    if (a.json)
        writeToStdout(disasmJson(d));
    else if (a.tsv)
        writeDisasmTsv(d, writeToStdout);
    else
        writeDisasmText(d, writeToStdout);
    return 0;
}

int runDiffDisasm(const ParsedArgs &argv)
{
    const DisasmArgs a = disasmArgsFrom(argv);
    if (a.positional.size() != 2)
        usageError("diff --disasm takes exactly two FILEs: BASE NEW");
    if (!a.disasm)
        usageError("--binary-base and --binary-new go with --disasm REGEX");
    double noiseK = 2.0;
    if (a.noise) {
        char *end = nullptr;
        noiseK = std::strtod(a.noise->c_str(), &end);
        if (end == a.noise->c_str() || *end || !(noiseK >= 0))
            usageError("--noise takes a number of standard errors >= 0, not '" + *a.noise + "'");
    }
    const Regex re = compileRequiredPprofRegex(*a.disasm, "disasm");
    const ReadOptions read = readOptionsFor(a.maxSize);
    const auto base = readProfileFile(a.positional[0], read);
    const auto next = readProfileFile(a.positional[1], read);
    leaveToProcessEnd(base);
    leaveToProcessEnd(next);
    const size_t type = chosenSampleType(*base, a.sample);
    const Disassembly before = disassembleProfiles({base}, type, re, searchFor(a.binaryBase), *a.disasm);
    const int afterType = findExactSampleType(*next, base->typeName(type), base->unitName(type));
    if (afterType < 0)
        throw ProfileError(next->sourceName + ": no " + base->typeName(type) + "/" + base->unitName(type) +
                           " sample type, which " + base->sourceName + " is listed in");
    const Disassembly after = disassembleProfiles({next}, size_t(afterType), re, searchFor(a.binaryNew), *a.disasm);
    warn(before);
    warn(after);
    DisasmDiff diff = diffDisassembly(before, after, noiseK);
    if (a.tsv) {
        writeDisasmDiffTsv(diff, writeToStdout);   // the columns: no inlining marks
        return 0;
    }
    try {   // the PGO panel's inlining changes, marked on the calls; a profile pair without them is still shown
        markInliningChanges(diff, computeInliningChanges({base}, {next}));   // the PGO panel's sample type
    } catch (const ProfileError &) {
    }
    if (a.json)
        writeToStdout(disasmDiffJson(diff));
    else
        writeDisasmDiffText(diff, writeToStdout);
    return 0;
}

}   // namespace qflame
