#include "source/FunctionSource.h"

#include "io/ReadOptions.h"
#include "tree/PprofRegex.h"

#include <QRegularExpression>

namespace qflame {

QRegularExpression exactFunction(const std::string &function)
{
    return QRegularExpression(QStringLiteral("^") + QRegularExpression::escape(QString::fromStdString(function)) +
                              QStringLiteral("$"));
}

int sampleTypeIndex(const Profile &p, const std::string &type, const std::string &unit)
{
    for (size_t i = 0; i < p.sampleTypes.size(); ++i)
        if (p.typeName(i) == type && p.unitName(i) == unit)
            return int(i);
    return -1;
}

SourceFinder sourceFinderFor(const SourcePaths &paths, const std::vector<std::shared_ptr<const Profile>> &profiles)
{
    SourceFinder finder(paths);
    std::vector<std::string> files;
    for (const auto &p : profiles)
        for (const Function &f : p->functions)
            files.emplace_back(p->str(f.filename));
    finder.learnProfileGoroot(files);
    return finder;
}

LineCosts lineCostsFor(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t type,
                       const QRegularExpression &functions, const SourceFinder &finder)
{
    return computeLineCosts(profiles, type, functions,
                            [&finder](const std::string &p) { return finder.displayPath(p); });
}

FunctionSource listFunction(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t type,
                            const std::string &function, const SourcePaths &paths)
{
    FunctionSource out;
    try {
        SourceFinder finder = sourceFinderFor(paths, profiles);
        out.listing = std::make_shared<SourceListing>(listSource(lineCostsFor(profiles, type, exactFunction(function), finder), finder));
    } catch (const std::exception &e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

FunctionSource listFunctionDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                const std::vector<std::shared_ptr<const Profile>> &after, size_t type,
                                const std::string &function, const SourcePaths &paths, double noiseK)
{
    FunctionSource out;
    try {
        std::vector<std::shared_ptr<const Profile>> both = before;
        both.insert(both.end(), after.begin(), after.end());
        SourceFinder finder = sourceFinderFor(paths, both);
        const QRegularExpression re = exactFunction(function);
        const Profile &first = *before.front();
        const int afterType = sampleTypeIndex(*after.front(), first.typeName(type), first.unitName(type));
        if (afterType < 0)
            throw ProfileError(after.front()->sourceName + ": no " + first.typeName(type) + "/" +
                               first.unitName(type) + " sample type");
        const LineCosts b = lineCostsFor(before, type, re, finder), a = lineCostsFor(after, size_t(afterType), re, finder);
        LineNoise noise;
        noise.k = noiseK;
        LineCosts bn, an;
        const int bc = sampleTypeIndex(first, "samples", "count"), ac = sampleTypeIndex(*after.front(), "samples", "count");
        if (bc >= 0 && ac >= 0) {
            bn = lineCostsFor(before, size_t(bc), re, finder);
            an = lineCostsFor(after, size_t(ac), re, finder);
            noise.beforeCounts = &bn;
            noise.afterCounts = &an;
        }
        out.listing = std::make_shared<SourceListing>(listSourceDiff(b, a, finder, noise));
    } catch (const std::exception &e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

}   // namespace qflame
