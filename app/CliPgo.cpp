// `qflame pgo FILE...`: what go build -pgo would make of the profiles, from model/pgo.
#include "CliPgo.h"

#include "Cli.h"
#include "CliVerbs.h"
#include "CliFormats.h"
#include "formats/ProfileInput.h"
#include "pgo/InliningChanges.h"
#include "pgo/PgoCandidates.h"
#include "pgo/PgoEdges.h"
#include "pgo/PgoReadiness.h"
#include "pgo/Preprofile.h"
#include "report/PgoReport.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>

namespace qflame {

namespace {

struct PgoArgs {
    std::vector<std::string> inputs;
    std::optional<std::string> threshold, preprofile, maxSize;
    bool tsv = false, json = false;
};

PgoArgs pgoArgsFrom(const ParsedArgs &p)
{
    PgoArgs a;
    a.inputs = p.positional();
    a.threshold = p.value("--threshold"), a.preprofile = p.value("--preprofile"), a.maxSize = p.value("--max-size");
    a.tsv = p.has("--tsv"), a.json = p.has("--json");
    return a;
}

double parseThreshold(const std::string &text)
{
    char *end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v < 0 || v > 100)
        usageError("--threshold takes a percentage from 0 to 100, not '" + text + "'");
    return v;
}

}   // namespace

int printInliningChanges(const std::shared_ptr<const Profile> &base, const std::shared_ptr<const Profile> &next,
                         int sampleIndex, bool tsv, bool json)
{
    const InliningChanges changes = computeInliningChanges({base}, {next}, sampleIndex);
    if (json)
        writeToStdout(inliningJson(changes, base->sourceName, next->sourceName));
    else if (tsv)
        writeInliningTsv(changes, writeToStdout);
    else
        writeInliningText(changes, base->sourceName, next->sourceName, writeToStdout);
    return 0;
}

int runPgo(const ParsedArgs &argv)
{
    const PgoArgs a = pgoArgsFrom(argv);
    if (a.inputs.empty())
        usageError("pgo takes one or more FILEs (several are merged)");
    if (a.preprofile && (a.tsv || a.json || a.threshold))
        usageError("--preprofile writes every edge (the compiler applies its own threshold): it takes neither "
                   "--tsv, --json nor --threshold");
    const double threshold = a.threshold ? parseThreshold(*a.threshold) : kPgoDefaultHotThreshold;
    const ReadOptions read = readOptionsFor(a.maxSize);
    std::vector<std::shared_ptr<const Profile>> profiles;
    uint64_t inputBytes = 0;
    bool sizeKnown = true;
    for (const std::string &f : a.inputs) {
        profiles.push_back(readProfileFile(f, read));
        leaveToProcessEnd(profiles.back());
        if (f == "-")
            sizeKnown = false;
        else
            inputBytes += uint64_t(QFileInfo(QString::fromStdString(f)).size());
    }
    const PgoEdges edges = computePgoEdges(profiles, threshold);
    if (a.preprofile) {
        std::string text;
        try {
            text = preprofileText(edges);
        } catch (const ProfileError &e) {   // the model knows the edges, not where they came from
            std::string sources;
            for (const auto &p : profiles)
                sources += (sources.empty() ? "" : ", ") + p->sourceName;
            throw ProfileError(sources + ": " + e.what());
        }
        writeOutput(*a.preprofile, text);
        return 0;
    }
    if (a.tsv) {
        writePgoTsv(edges, writeToStdout);
        return 0;
    }
    const auto readiness = pgoReadiness(profiles, edges, sizeKnown ? inputBytes : 0);
    if (a.json)
        writeToStdout(pgoJson(edges, readiness, threshold));
    else
        writePgoText(edges, readiness, threshold, writeToStdout);
    return 0;
}

}   // namespace qflame
