// The legacy Pyroscope endpoints qryn 3.2.39 serves, GET /pyroscope/render and /pyroscope/render-diff: their
// query strings, and their "flamebearer" JSON answers (qryn.md §4.12, §4.13).
#pragma once

#include "qryn/QrynTypes.h"

#include <QByteArray>
#include <QString>
#include <QUrlQuery>

namespace qflame::qryn {

// query=<type id>{<selector>}&from=<ms>&until=<ms>. The endpoint takes only epoch ms (now-1h gives HTTP 400).
QUrlQuery renderQuery(const ProfileQuery &query);
// leftQuery, leftFrom, leftUntil, rightQuery, rightFrom, rightUntil.
QUrlQuery renderDiffQuery(const ProfileQuery &left, const ProfileQuery &right);

// The flamebearer of render (format "single") into result->flamegraph.graph, plus metadata and timeline; the
// tree is not built here. False and *why when the JSON is not a flamebearer.
bool parseRender(const QByteArray &body, RenderResult *result, QString *why);
// The flamebearer of render-diff (format "double") into result->graph; the profiles are not built here.
bool parseRenderDiff(const QByteArray &body, RenderDiffResult *result, QString *why);

}   // namespace qflame::qryn
