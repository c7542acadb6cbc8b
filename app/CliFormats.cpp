// `qflame convert FILE... --to pprof|folded [--output OUT]` and `--for pgo`: export through the model's writers.
#include "CliFormats.h"

#include "Cli.h"
#include "CliTimeRange.h"
#include "CliVerbs.h"
#include "export/ProfileWriter.h"
#include "export/StackExport.h"
#include "formats/ProfileInput.h"
#include "pgo/PgoTrim.h"
#include "tree/CallTreeBuilder.h"
#include "tree/LabelFrames.h"

#include <QFileInfo>

#include <cstdio>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

struct ConvertArgs {
    std::vector<std::string> inputs;
    std::optional<std::string> to, output, sample, granularity, maxSize, forTool;
    SampleFilters frames;   // --tagroot, --tagleaf
};

ConvertArgs convertArgsFrom(const ParsedArgs &p)
{
    ConvertArgs a;
    a.inputs = p.positional();
    a.to = convertFormat(p);   // a --to that starts with a digit is the time range's (CliTimeRange)
    // --output and -o are one option; the last given wins.
    for (const ParsedArgs::Item &item : p.items)
        if (item.option == "--output" || item.option == "-o")
            a.output = item.value;
    a.sample = p.value("--sample"), a.granularity = p.value("--granularity"), a.maxSize = p.value("--max-size");
    a.forTool = p.value("--for");
    a.frames = sampleFiltersFrom(p);   // --tagroot, --tagleaf
    return a;
}

// `--for pgo`: only what go build -pgo reads; the sizes go to stderr, so the profile can go to stdout.
int convertForPgo(const ConvertArgs &a, const std::vector<std::shared_ptr<const Profile>> &profiles,
                  uint64_t inputBytes)
{
    const PgoTrimmedFile trimmed = encodeTrimmedForPgo(profiles);
    writeOutput(a.output.value_or("-"), trimmed.gzipBytes);
    std::cerr << trimmedForPgoReport(inputBytes, trimmed) << "\n";
    return 0;
}

}   // namespace

std::string trimmedForPgoReport(uint64_t inputBytes, const PgoTrimmedFile &trimmed)
{
    std::string line = "trimmed for go build -pgo: " + std::to_string(trimmed.gzipBytes.size()) + " bytes";
    if (inputBytes > 0) {
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.1f", double(inputBytes) / double(std::max<size_t>(trimmed.gzipBytes.size(), 1)));
        line += " from " + std::to_string(inputBytes) + " (" + ratio + "x smaller)";
    }
    return line + ", the same " + std::to_string(trimmed.edges) + " edges";
}

void writeOutput(const std::string &path, const std::string &bytes)
{
    writeExportFile(path, bytes);   // the window's File > Export writes through the same function
}

int runConvert(const ParsedArgs &argv)
{
    const ConvertArgs a = convertArgsFrom(argv);
    if (a.inputs.empty())
        usageError("convert takes one or more FILEs (several are merged)");
    if (a.forTool && *a.forTool != "pgo")
        usageError("--for takes pgo (the profile go build -pgo reads), not '" + *a.forTool + "'");
    if (a.forTool && ((a.to && *a.to != "pprof") || a.sample || a.granularity))
        usageError("--for pgo writes pprof with the compiler's sample types and frames: it takes neither --to " +
                   std::string("folded, --sample nor --granularity"));
    const std::optional<StackFormat> format = a.to ? parseStackFormat(*a.to) : std::nullopt;
    if (!a.forTool && !format)
        usageError("convert needs --to pprof, --to folded, --to speedscope or --for pgo");
    BuildOptions build;
    if (a.granularity && !parseGranularity(*a.granularity, &build.granularity))
        usageError("--granularity must be functions, lines or addresses, not '" + *a.granularity + "'");
    if (a.forTool && a.frames.addsLabelFrames())
        usageError("--for pgo writes what the compiler reads: it takes no --tagroot or --tagleaf");
    build.filters = a.frames;
    const ReadOptions read = readOptionsFor(a.maxSize);

    std::vector<std::shared_ptr<const Profile>> profiles;
    uint64_t inputBytes = 0;
    for (const std::string &f : a.inputs) {
        profiles.push_back(readProfileFile(f, read));
        leaveToProcessEnd(profiles.back());
        inputBytes += f == "-" ? 0 : uint64_t(QFileInfo(QString::fromStdString(f)).size());
    }
    if (a.forTool)
        return convertForPgo(a, profiles, inputBytes);
    const std::string output = a.output.value_or("-");
    if (*a.to == "pprof" && profiles.size() == 1 && !a.sample && !a.granularity) {
        // With --tagroot/--tagleaf, the whole profile with its label locations, as pprof -proto writes it.
        writeOutput(output, gzipCompress(encodePprof(*withLabelFrames(profiles, build.filters).front())));
        return 0;
    }
    const size_t type = chosenSampleType(*profiles.front(), a.sample);
    const auto tree = CallTreeBuilder::build(profiles, type, build);
    leaveToProcessEnd(tree);
    writeOutput(output, stackExportBytes(*tree, *format, speedscopeProfileName(*profiles.front(), type)));
    return 0;
}

}   // namespace qflame
