// `qflame convert FILE... --to pprof|folded [--output OUT]`: export through the model's writers.
#include "CliFormats.h"

#include "Cli.h"
#include "export/FoldedWriter.h"
#include "export/ProfileWriter.h"
#include "formats/ProfileInput.h"
#include "tree/CallTreeBuilder.h"

#include <QSaveFile>

#include <cstdio>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

struct ConvertArgs {
    std::vector<std::string> inputs;
    std::optional<std::string> to, output, sample, granularity, maxSize;
};

ConvertArgs parseConvertArgs(const std::vector<std::string> &argv)
{
    ConvertArgs a;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string &s = argv[i];
        auto value = [&](std::optional<std::string> &slot) {
            const size_t eq = s.find('=');
            if (s.rfind("--", 0) == 0 && eq != std::string::npos)
                slot = s.substr(eq + 1);
            else if (i + 1 < argv.size())
                slot = argv[++i];
            else
                usageError("option " + s + " needs a value");
        };
        auto is = [&](const char *name) { return s == name || s.rfind(std::string(name) + "=", 0) == 0; };
        if (is("--to"))
            value(a.to);
        else if (is("--output") || s == "-o")
            value(a.output);
        else if (is("--sample"))
            value(a.sample);
        else if (is("--granularity"))
            value(a.granularity);
        else if (is("--max-size"))
            value(a.maxSize);
        else if (s.size() > 1 && s[0] == '-' && s != "-")
            usageError("unknown option " + s);
        else
            a.inputs.push_back(s);
    }
    return a;
}

int sampleTypeOf(const Profile &p, const std::optional<std::string> &spec)
{
    if (!spec)
        return p.effectiveDefaultType();
    const int type = p.findSampleType(*spec);
    if (type < 0) {
        std::string known;
        for (size_t i = 0; i < p.sampleTypes.size(); ++i)
            known += (i ? ", " : "") + p.typeName(i) + "/" + p.unitName(i);
        usageError("no sample type '" + *spec + "' in " + p.sourceName + " (it has: " + known + ")");
    }
    return type;
}

}   // namespace

void writeOutput(const std::string &path, const std::string &bytes)
{
    if (path == "-") {
        if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() || std::fflush(stdout) != 0)
            throw ProfileError("<stdout>: cannot write");
        return;
    }
    // QSaveFile replaces the target only once everything is written: a failed export leaves no half file.
    QSaveFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) ||
        !file.commit())
        throw ProfileError(path + ": cannot write: " + file.errorString().toStdString());
}

int runConvert(const std::vector<std::string> &argv)
{
    const ConvertArgs a = parseConvertArgs(argv);
    if (a.inputs.empty())
        usageError("convert takes one or more FILEs (several are merged)");
    if (!a.to || (*a.to != "pprof" && *a.to != "folded"))
        usageError("convert needs --to pprof or --to folded");
    BuildOptions build;
    if (a.granularity && !parseGranularity(*a.granularity, &build.granularity))
        usageError("--granularity must be functions, lines or addresses, not '" + *a.granularity + "'");
    const ReadOptions read = readOptionsFor(a.maxSize);

    std::vector<std::shared_ptr<const Profile>> profiles;
    for (const std::string &f : a.inputs) {
        profiles.push_back(readProfileFile(QString::fromStdString(f), read));
        leaveToProcessEnd(profiles.back());
    }
    const std::string output = a.output.value_or("-");
    if (*a.to == "pprof" && profiles.size() == 1 && !a.sample && !a.granularity) {
        writeOutput(output, gzipCompress(encodePprof(*profiles.front())));
        return 0;
    }
    const int type = sampleTypeOf(*profiles.front(), a.sample);
    if (type < 0)
        throw ProfileError(profiles.front()->sourceName + ": the profile has no sample types");
    const auto tree = CallTreeBuilder::build(profiles, size_t(type), build);
    leaveToProcessEnd(tree);
    writeOutput(output, *a.to == "pprof" ? gzipCompress(encodePprof(*tree)) : writeFolded(*tree));
    return 0;
}

}   // namespace qflame
