#include "qryn/LegacyRender.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace qflame::qryn {

namespace {

// <type id>{<matchers>}: render wants the braces even when the selector was given without them.
QString renderExpression(const ProfileQuery &q)
{
    QString selector = q.labelSelector.trimmed();
    if (!selector.startsWith(u'{'))
        selector = QLatin1Char('{') + selector + QLatin1Char('}');
    return q.profileTypeId + selector;
}

// JSON numbers are doubles: exact for integers up to 2^53, which every tick count here stays below.
bool toInt64(const QJsonValue &v, int64_t *out)
{
    if (!v.isDouble())
        return false;
    const double d = v.toDouble();
    if (d != std::floor(d) || std::fabs(d) > 9007199254740992.0)
        return false;
    *out = int64_t(d);
    return true;
}

bool parseFlamebearer(const QJsonObject &fb, std::vector<std::string> *names,
                      std::vector<std::vector<int64_t>> *levels, int64_t *maxSelf, QString *why)
{
    const QJsonValue namesV = fb.value(QLatin1String("names")), levelsV = fb.value(QLatin1String("levels"));
    if (!namesV.isArray() || !levelsV.isArray()) {
        *why = QStringLiteral("the flamebearer has no names or levels array");
        return false;
    }
    for (const QJsonValue &n : namesV.toArray())
        names->push_back(n.toString().toStdString());
    for (const QJsonValue &l : levelsV.toArray()) {
        std::vector<int64_t> level;
        for (const QJsonValue &v : l.toArray()) {
            int64_t x;
            if (!toInt64(v, &x)) {
                *why = QStringLiteral("level %1 holds a value that is not an integer").arg(levels->size());
                return false;
            }
            level.push_back(x);
        }
        levels->push_back(std::move(level));
    }
    if (!toInt64(fb.value(QLatin1String("maxSelf")), maxSelf))
        *maxSelf = 0;
    return true;
}

bool parseObject(const QByteArray &body, QJsonObject *out, QString *why)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        *why = error.error != QJsonParseError::NoError
                   ? QStringLiteral("not JSON (%1 at offset %2)").arg(error.errorString()).arg(error.offset)
                   : QStringLiteral("the JSON is not an object");
        return false;
    }
    *out = doc.object();
    if (!out->value(QLatin1String("flamebearer")).isObject()) {
        *why = QStringLiteral("the JSON has no \"flamebearer\" object");
        return false;
    }
    return true;
}

}   // namespace

QUrlQuery renderQuery(const ProfileQuery &query)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("query"), renderExpression(query));
    q.addQueryItem(QStringLiteral("from"), QString::number(query.range.startMs));
    q.addQueryItem(QStringLiteral("until"), QString::number(query.range.endMs));
    return q;
}

QUrlQuery renderDiffQuery(const ProfileQuery &left, const ProfileQuery &right)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("leftQuery"), renderExpression(left));
    q.addQueryItem(QStringLiteral("leftFrom"), QString::number(left.range.startMs));
    q.addQueryItem(QStringLiteral("leftUntil"), QString::number(left.range.endMs));
    q.addQueryItem(QStringLiteral("rightQuery"), renderExpression(right));
    q.addQueryItem(QStringLiteral("rightFrom"), QString::number(right.range.startMs));
    q.addQueryItem(QStringLiteral("rightUntil"), QString::number(right.range.endMs));
    return q;
}

bool parseRender(const QByteArray &body, RenderResult *result, QString *why)
{
    QJsonObject root;
    if (!parseObject(body, &root, why))
        return false;
    const QJsonObject fb = root.value(QLatin1String("flamebearer")).toObject();
    Flamegraph &g = result->flamegraph.graph;
    if (!parseFlamebearer(fb, &g.names, &g.levels, &g.maxSelf, why))
        return false;
    if (!toInt64(fb.value(QLatin1String("numTicks")), &g.total)) {
        *why = QStringLiteral("the flamebearer has no numTicks");
        return false;
    }
    const QJsonObject meta = root.value(QLatin1String("metadata")).toObject();
    result->format = meta.value(QLatin1String("format")).toString();
    result->units = meta.value(QLatin1String("units")).toString();
    result->sampleName = meta.value(QLatin1String("name")).toString();
    result->sampleRate = meta.value(QLatin1String("sampleRate")).toDouble();
    const QJsonValue tl = root.value(QLatin1String("timeline"));
    result->hasTimeline = tl.isObject();
    if (result->hasTimeline) {
        const QJsonObject t = tl.toObject();
        int64_t start = 0, delta = 0;
        toInt64(t.value(QLatin1String("startTime")), &start);
        toInt64(t.value(QLatin1String("durationDelta")), &delta);
        result->timeline.startTimeS = start;
        result->timeline.durationDeltaS = delta;
        for (const QJsonValue &v : t.value(QLatin1String("samples")).toArray())
            result->timeline.samples.push_back(v.toDouble());
    }
    return true;
}

bool parseRenderDiff(const QByteArray &body, RenderDiffResult *result, QString *why)
{
    QJsonObject root;
    if (!parseObject(body, &root, why))
        return false;
    FlamegraphDiff &g = result->graph;
    if (!parseFlamebearer(root.value(QLatin1String("flamebearer")).toObject(), &g.names, &g.levels, &g.maxSelf,
                          why))
        return false;
    if (!toInt64(root.value(QLatin1String("leftTicks")), &g.leftTicks) ||
        !toInt64(root.value(QLatin1String("rightTicks")), &g.rightTicks)) {
        *why = QStringLiteral("the answer has no leftTicks/rightTicks: not a diff flamebearer");
        return false;
    }
    return true;
}

}   // namespace qflame::qryn
