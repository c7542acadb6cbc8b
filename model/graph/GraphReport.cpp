#include "graph/GraphReport.h"

#include "graph/GraphMarks.h"

#include "pprof/Units.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace qflame {

namespace {

void appendTsvField(std::string &out, const std::string &s)
{
    for (char c : s) {
        switch (c) {
        case '\\': out += "\\\\"; break;
        case '\t': out += "\\t"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        default: out += c;
        }
    }
}

std::string dotEscape(const std::string &s)
{
    std::string out;
    for (char c : s) {
        if (c == '\\' || c == '"')
            out += '\\';
        if (c == '\n') {
            out += "\\l";
            continue;
        }
        out += c;
    }
    return out;
}

// Before, after, delta: exact integers, or under a normalisation the scaled values as diff --tsv prints them
// (the shortest decimals that read back exactly).
void appendDiffValues(std::string &out, const CallGraph &g, const int64_t values[2])
{
    if (!g.isNormalized()) {
        out += '\t' + std::to_string(values[0]) + '\t' + std::to_string(values[1]) + '\t' +
               std::to_string(values[1] - values[0]);
        return;
    }
    const double before = double(values[0]) * g.scale(0), after = double(values[1]) * g.scale(1);
    out += '\t' + formatExact(before) + '\t' + formatExact(after) + '\t' + formatExact(after - before);
}

void appendValues(std::string &out, const CallGraph &g, const int64_t values[2], DiffClass cls)
{
    if (!g.isDiff()) {
        out += '\t' + std::to_string(values[1]);
        return;
    }
    appendDiffValues(out, g, values);
    out += '\t';
    out += diffClassName(cls);
}

// pprof's dotColor, for a profile's own graph: grey near 0, red towards the total.
std::string heatColor(double score, bool background)
{
    const double saturationMax = background ? 0.1 : 1.0, value = background ? 0.93 : 0.7;
    score = std::max(-1.0, std::min(1.0, score));
    double saturation = saturationMax;
    if (std::fabs(score) < 0.2)
        saturation *= std::fabs(score) / 0.2;
    score = score > 0 ? std::pow(score, 0.3) : score < 0 ? -std::pow(-score, 0.3) : 0;
    double r, g;
    if (score < 0) {
        g = value;
        r = value * (1 + saturation * score);
    } else {
        r = value;
        g = value * (1 - saturation * score);
    }
    const double b = value * (1 - saturation);
    char buf[16];
    snprintf(buf, sizeof buf, "#%02x%02x%02x", unsigned(uint8_t(r * 255)), unsigned(uint8_t(g * 255)),
             unsigned(uint8_t(b * 255)));
    return buf;
}

// The diff flamegraph's meaning in dot colours: red more cost, green less, grey within noise or unchanged.
std::string diffColor(DiffClass c, bool background)
{
    switch (c) {
    case DiffClass::Slower:
    case DiffClass::New: return background ? "#fbe3e0" : "#c0392b";
    case DiffClass::Faster:
    case DiffClass::Removed: return background ? "#e0f3e3" : "#1e8449";
    default: return background ? "#eeeeee" : "#888888";
    }
}

}   // namespace

std::vector<uint32_t> tsvNodeOrder(const CallGraph &g)
{
    std::vector<uint32_t> order(g.nodes().size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        if (g.isNormalized()) {   // by the shown |delta|
            const double da = std::fabs(g.cumDelta(g.nodes()[a])), db = std::fabs(g.cumDelta(g.nodes()[b]));
            if (da != db)
                return da > db;
            return g.name(a) < g.name(b);
        }
        const int64_t ca = g.nodes()[a].cumValue(), cb = g.nodes()[b].cumValue();
        if (g.isDiff() ? std::llabs(ca) != std::llabs(cb) : ca != cb)
            return g.isDiff() ? std::llabs(ca) > std::llabs(cb) : ca > cb;
        return g.name(a) < g.name(b);
    });
    return order;
}

std::vector<uint32_t> tsvEdgeOrder(const CallGraph &g)
{
    std::vector<uint32_t> order(g.edges().size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const GraphEdge &x = g.edges()[a], &y = g.edges()[b];
        if (g.isNormalized()) {   // by the shown |delta|
            const double dx = std::fabs(g.edgeDelta(x)), dy = std::fabs(g.edgeDelta(y));
            if (dx != dy)
                return dx > dy;
        } else if (g.isDiff() ? std::llabs(x.value()) != std::llabs(y.value()) : x.value() != y.value()) {
            return g.isDiff() ? std::llabs(x.value()) > std::llabs(y.value()) : x.value() > y.value();
        }
        if (g.name(x.from) != g.name(y.from))
            return g.name(x.from) < g.name(y.from);
        return g.name(x.to) < g.name(y.to);
    });
    return order;
}

std::string graphTsv(const CallGraph &g)
{
    std::string out;
    for (uint32_t i : tsvNodeOrder(g)) {
        const GraphNode &n = g.nodes()[i];
        out += "node\t";
        appendTsvField(out, g.name(i));
        if (g.isDiff()) {   // before, after, delta of flat; of cum with the class (by cum, as diff --tsv)
            appendDiffValues(out, g, n.flat);
        } else {
            out += '\t' + std::to_string(n.flat[1]);
        }
        appendValues(out, g, n.cum, g.classOf(n));
        out += '\n';
    }
    for (uint32_t i : tsvEdgeOrder(g)) {
        const GraphEdge &e = g.edges()[i];
        out += "edge\t";
        appendTsvField(out, g.name(e.from));
        out += '\t';
        appendTsvField(out, g.name(e.to));
        appendValues(out, g, e.weight, g.classOf(e));
        out += '\t';
        out += e.kind();
        out += '\n';
    }
    return out;
}

std::string shortFunctionName(const std::string &name)
{
    static const QRegularExpression anonymous(QStringLiteral("^\\(anonymous namespace\\)::"));
    static const QRegularExpression goVersion(QStringLiteral("^(.*?)/v(?:[2-9]|[1-9][0-9]+)([./].*)$"));
    static const QRegularExpression patterns[] = {
        QRegularExpression(QStringLiteral("^(?:[\\w\\-\\.]+\\/)+(.+)")),   // Go: the package path
        QRegularExpression(QStringLiteral(   // Java: package and arguments
            "^(?:[a-z]\\w*\\.)*([A-Z][\\w\\$]*\\.(?:<init>|[a-z][\\w\\$]*(?:\\$\\d+)?))(?:(?:\\()|$)")),
        QRegularExpression(QStringLiteral(   // C++: the namespaces
            "^(?:[_a-zA-Z]\\w*::)+(_*[A-Z]\\w*::~?[_a-zA-Z]\\w*(?:<.*>)?)")),
    };
    QString f = QString::fromStdString(name);
    f.remove(anonymous);
    f.replace(goVersion, QStringLiteral("\\1\\2"));
    for (const QRegularExpression &re : patterns) {
        const QRegularExpressionMatch m = re.match(f);
        if (m.hasMatch() && m.lastCapturedIndex() >= 1) {
            QString joined;
            for (int i = 1; i <= m.lastCapturedIndex(); ++i)
                joined += m.captured(i);
            return joined.toStdString();
        }
    }
    return f.toStdString();
}

std::vector<std::string> nodeNameLines(const CallGraph &g, uint32_t node)
{
    const std::string &label = g.name(node);
    const Frame &frame = g.frames().frame(g.nodes()[node].frame);
    const std::string &fn = g.frames().strings().str(frame.key.name);
    std::vector<std::string> lines;
    std::string rest = label;
    if (!fn.empty()) {
        const size_t at = label.find(fn);
        std::string shortName = shortFunctionName(fn);
        // One line per package and type part, as pprof splits at '.' and "::" (Go's "[...]" kept whole).
        std::string part;
        for (size_t i = 0; i < shortName.size(); ++i) {
            if (shortName.compare(i, 5, "[...]") == 0) {
                part += "[...]";
                i += 4;
            } else if (shortName.compare(i, 2, "::") == 0) {
                lines.push_back(part);
                part.clear();
                ++i;
            } else if (shortName[i] == '.' && !part.empty()) {
                lines.push_back(part);
                part.clear();
            } else {
                part += shortName[i];
            }
        }
        if (!part.empty())
            lines.push_back(part);
        if (at != std::string::npos)
            rest = label.substr(0, at) + label.substr(at + fn.size());
        else
            rest.clear();
    } else {
        lines.push_back(label);
        rest.clear();
    }
    // What is left (address, file:line) goes on its own line, the file without its directories.
    while (!rest.empty() && rest.front() == ' ')
        rest.erase(rest.begin());
    while (!rest.empty() && rest.back() == ' ')
        rest.pop_back();
    if (!rest.empty()) {
        const size_t slash = rest.rfind('/');
        const size_t space = rest.find(' ');
        if (slash != std::string::npos && (space == std::string::npos || slash > space))
            rest = (space == std::string::npos ? std::string() : rest.substr(0, space + 1)) + rest.substr(slash + 1);
        lines.push_back(rest);
    }
    return lines;
}

std::string graphValueText(const CallGraph &g, int64_t value)
{
    return formatValue(double(value), g.sampleType().unit);
}

std::string graphPercentText(const CallGraph &g, double value)
{
    return formatPercent(value, std::fabs(g.scaledTotal()));
}

std::string graphDeltaText(const CallGraph &g, double value)
{
    return formatNormalizedValue(value, g.sampleType().unit, g.diffOptions().normalization);
}

std::string graphNormalizationLine(const CallGraph &g)
{
    return g.isNormalized() ? "Normalisation: " + g.normalizationText() : std::string();
}

std::string graphDot(const CallGraph &g)
{
    std::string out = "digraph \"qflame\" {\n";
    out += "node [style=filled fillcolor=\"#f8f8f8\" fontname=\"sans-serif\"]\n";
    out += "edge [fontname=\"sans-serif\"]\n";
    std::string legend = "Type: " + g.sampleType().type + "\\lShowing nodes accounting for " +
                         graphDeltaText(g, g.shownDelta()) + ", " + graphPercentText(g, g.shownDelta()) + " of " +
                         graphDeltaText(g, g.scaledTotal()) + " total\\l";
    if (g.isNormalized())
        legend += dotEscape(graphNormalizationLine(g)) + "\\l";
    if (g.hasMeasuredNoise())
        legend += dotEscape("Noise measured from " + g.measuredSource() + " for " +
                            std::to_string(measuredNodeCount(g)) + " of " + std::to_string(g.nodes().size()) +
                            " nodes and " + std::to_string(measuredEdgeCount(g)) + " of " +
                            std::to_string(g.edges().size()) + " edges") +
                  "\\l";
    if (g.droppedNodes())
        legend += "Dropped " + std::to_string(g.droppedNodes()) + " nodes (cum <= " +
                  graphValueText(g, g.nodeCutoff()) + ")\\l";
    if (g.droppedEdges())
        legend += "Dropped " + std::to_string(g.droppedEdges()) + " edges (freq <= " +
                  graphValueText(g, g.edgeCutoff()) + ")\\l";
    if (g.nodes().size() < g.nodesBeforeLimit())
        legend += "Showing top " + std::to_string(g.nodes().size()) + " nodes out of " +
                  std::to_string(g.nodesBeforeLimit()) + "\\l";
    out += "subgraph cluster_L { \"legend\" [shape=box fontsize=16 label=\"" + legend + "\"] }\n";
    double maxFlat = 0;
    for (const GraphNode &n : g.nodes())
        maxFlat = std::max(maxFlat, std::fabs(g.flatDelta(n)));
    const double total = std::fabs(g.scaledTotal());
    for (uint32_t i = 0; i < g.nodes().size(); ++i) {
        const GraphNode &n = g.nodes()[i];
        const double flat = g.flatDelta(n), cum = g.cumDelta(n);
        std::string label;
        for (const std::string &line : nodeNameLines(g, i))
            label += dotEscape(line) + "\\n";
        label += flat != 0 ? graphDeltaText(g, flat) + " (" + graphPercentText(g, flat) + ")" : std::string("0");
        if (cum != flat)
            label += std::string(flat != 0 ? "\\n" : " ") + "of " + graphDeltaText(g, cum) + " (" +
                     graphPercentText(g, cum) + ")";
        int fontSize = 8;
        if (maxFlat != 0 && flat != 0)
            fontSize += int(std::ceil(16.0 * std::sqrt(std::fabs(flat) / maxFlat)));
        const double score = total != 0 ? cum / total : 0;
        const DiffClass cls = g.classOf(n);
        out += "N" + std::to_string(i + 1) + " [label=\"" + label + "\" id=\"node" + std::to_string(i + 1) +
               "\" fontsize=" + std::to_string(fontSize) + " shape=box tooltip=\"" + dotEscape(g.name(i)) + " (" +
               graphDeltaText(g, cum) + ")\" color=\"" +
               (g.isDiff() ? diffColor(cls, false) : heatColor(score, false)) + "\" fillcolor=\"" +
               (g.isDiff() ? diffColor(cls, true) : heatColor(score, true)) + "\"]\n";
    }
    for (uint32_t i = 0; i < g.edges().size(); ++i) {
        const GraphEdge &e = g.edges()[i];
        const double value = g.edgeDelta(e);
        const std::string w = graphDeltaText(g, value);
        // An inlining change of the PGO panel's (graph/GraphMarks.h): a line of the label, in purple.
        const std::string change = edgeInliningText(g, i);
        std::string attr = "label=\" " + w + (e.inlined ? "\\n (inline)" : "") +
                           (change.empty() ? "" : "\\n " + change) + "\"";
        if (!change.empty())
            attr += " fontcolor=\"" + std::string(kInliningChangeColor) + "\"";
        if (total != 0) {
            // pprof's integer arithmetic on the raw values; on the shown values under a normalisation.
            const int64_t weight =
                g.isNormalized() ? 1 + int64_t(std::min(std::fabs(value * 100 / total), 100.0))
                                 : 1 + std::min<int64_t>(std::llabs(e.value() * 100 / int64_t(total)), 100);
            if (weight > 1)
                attr += " weight=" + std::to_string(weight);
            const int64_t width = g.isNormalized() ? 1 + int64_t(std::min(std::fabs(value * 5 / total), 5.0))
                                                   : 1 + std::min<int64_t>(std::llabs(e.value() * 5 / int64_t(total)), 5);
            if (width > 1)
                attr += " penwidth=" + std::to_string(width);
            attr += " color=\"" +
                    (g.isDiff() ? diffColor(g.classOf(e), false) : heatColor(value / total, false)) + "\"";
        }
        const std::string tooltip = "\"" + dotEscape(g.name(e.from)) + (e.residual ? " ... " : " -> ") +
                                    dotEscape(g.name(e.to)) + " (" + w + ")\"";
        attr += " tooltip=" + tooltip + " labeltooltip=" + tooltip;
        if (e.residual)
            attr += " style=\"dotted\"";
        out += "N" + std::to_string(e.from + 1) + " -> N" + std::to_string(e.to + 1) + " [" + attr + "]\n";
    }
    out += "}\n";
    return out;
}

}   // namespace qflame
