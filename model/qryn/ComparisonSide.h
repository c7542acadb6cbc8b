// One side of a comparison of server queries, with what the noise test needs: the query's flamegraph and, where
// the server holds it, the flamegraph of the same profiles' samples:count type (Go's CPU profiles carry both:
// process_cpu:cpu:nanoseconds:... and process_cpu:samples:count:...), as one profile with one sample type per
// flamegraph. DiffSide then finds the counts behind every node (diff/DiffSide.h) and the diff can tell noise from
// change. `qflame diff --url` and the explorer's comparisons both use it, so the two give the same noise band.
#pragma once

#include "pprof/Profile.h"
#include "qryn/QrynError.h"
#include "qryn/QrynTypes.h"

#include <QFuture>
#include <QStringList>

#include <memory>
#include <optional>

namespace qflame::qryn {

class QrynClient;

// The samples:count type of the profiles of `type`: "NAME:samples:count:PERIOD_TYPE:PERIOD_UNIT"; empty when
// `type` is that type itself (its values are the counts).
QString sampleCountTypeId(const ProfileType &type);

// A side's profile: null when nothing matched the query (say noProfilesMessage(query)). Its duration is the
// query's window; its sample types are [samples/count, the query's type] when the server had counts for the same
// stacks, else only the query's type.
using SideResult = Result<std::shared_ptr<const Profile>>;

// The side from the two answers (`counts` absent: not asked). A failed answer is the side's error; counts that are
// empty (the server holds no such type: memory profiles, say) are left out, so the noise is then unknown rather
// than wrong.
SideResult comparisonSide(const ProfileQuery &query, const Result<MergedFlamegraph> &values,
                          const std::optional<Result<MergedFlamegraph>> &counts);

// Asks the server for both flamegraphs at once and combines them off the calling thread. `knownTypes`, when given,
// are the server's profile types (ProfileTypes): the counts are asked for only when they are listed there.
QFuture<SideResult> fetchComparisonSide(QrynClient &client, const ProfileQuery &query,
                                        const QStringList *knownTypes = nullptr);

}   // namespace qflame::qryn
