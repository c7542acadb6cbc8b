// Rounds from a server (issue 17): each round a label selector and a window of one profile type, its observations
// one per step of the window (a step without data an observation of 0), its tree the window's merged flamegraph.
// What `qflame rounds --url` hands to compareRounds (rounds/Rounds.h), so its tables are those of files.
//
// Per-step totals come from SelectSeries, whose buckets qryn aligns to multiples of the step since the epoch and
// whose range qryn 3.2.39 ignores (qryn.md §3.3, §4.7). So the series is asked with the largest step dividing the
// window's start, end and step (the buckets then never straddle a step's edge), its points outside the window are
// dropped, and those inside are summed into the steps here. The steps are checked against the window's merge
// (SelectMergeStacktraces, whose values are right, unlike SelectMergeProfile's): when their sum differs, SelectSeries
// is not trusted (e.g. a window older than the 7 days it always covers) and each step is its own merge instead.
//
// Times: qryn floors start and end to whole seconds, so the window is [floor(from), floor(to)) in seconds; a step
// [s, e) merges as start s, end e - 1 ms (SelectMergeStacktraces includes its end, which is the next step's start;
// qryn floors e - 1 ms to e - 1 s, so a profile stamped inside the last second of a window but not on a whole second
// is in SelectSeries' step yet not in the merge: ingesters stamp whole seconds, and the check above would say so).
#pragma once

#include "qryn/ConnectionSettings.h"
#include "qryn/QrynTypes.h"
#include "rounds/RoundFiles.h"
#include "rounds/Rounds.h"
#include "rounds/RoundStats.h"

#include <QFuture>
#include <QString>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace qflame::qryn {

class QrynClient;

struct ServerRoundSpec {
    std::string name;
    QString selector = QStringLiteral("{}");
    TimeRange range;
};

struct ServerRoundsQuery {
    QString profileTypeId;
    qint64 stepSeconds = 0;   // 0: chosen per round (roundStepSeconds)
    std::vector<ServerRoundSpec> rounds;
};

// The step of a window: `given` when > 0, else about 60 steps and none shorter than 10 s.
qint64 roundStepSeconds(const TimeRange &range, qint64 given);

// The steps of a window in whole seconds, as ms ranges [start, end): the last one shorter when the window is not
// a whole number of steps. Empty for an empty window.
std::vector<TimeRange> roundSteps(const TimeRange &range, qint64 stepSeconds);

// The SelectSeries step whose epoch-aligned buckets fit the steps: gcd of the window's start, end and the step.
qint64 seriesStepSeconds(const TimeRange &range, qint64 stepSeconds);

// One observation per step: the sum over every series of the points whose bucket starts inside the step (points
// outside the steps are dropped: qryn sends 7 days whatever the range). Durations are the steps' lengths in ns;
// each observation's source is "NAME step START_MS".
std::vector<Observation> observationsFromSeries(const QList<Series> &series, const std::vector<TimeRange> &steps,
                                                const std::string &name);

struct ServerRounds {
    std::vector<RoundInput> rounds;   // each with its observations and one tree (the window's merge)
    std::string sample;               // "TYPE/UNIT" of the profile type, for RoundsOptions::sample
    std::vector<std::string> notes;   // what the user should know (a source replaced, ...)
    // Which error the functions' verdicts use, for reports (issue 17: "say which").
    std::string functionNoise = "functions: Poisson errors from each window's merged tree (the server's windows "
                                "have one tree each, not one per step)";
};

// Asks the server, all rounds at once, and waits (QrynClient::wait: the calling thread's event loop runs; for the
// command line and tests). Throws ProfileError "round NAME: ..." for a failed request (a bad selector: the
// server's refusal), a round without data in its window, an inconsistent answer; ProfileError for a bad type ID.
ServerRounds fetchServerRounds(QrynClient &client, const ServerRoundsQuery &query);
// The same with a client of its own, made and used on the calling thread: for a pool thread (the window's rounds
// tab), whose event loop then runs the requests while the GUI thread paints. `cancelled` is asked every 50 ms
// while requests run: once it says yes, every request is aborted and ProfileError "... cancelled" thrown at once,
// so a tab closed or cancelled during a long fetch frees its thread without waiting for the server.
ServerRounds fetchServerRounds(const ConnectionSettings &settings, const ServerRoundsQuery &query,
                               const std::function<bool()> &cancelled = {});

// The fetched rounds compared as rounds of files are (compareRounds), at the server's sample type, the fetch's notes
// first and the functions' noise last: what `qflame rounds --url` prints and the window's rounds tab shows.
RoundsResult compareServerRounds(const ServerRounds &fetched, RoundsOptions options);

// The window's rounds tab: fetchServerRounds with a client of its own on a pool thread, then compareServerRounds.
// Cancelling the future aborts the requests in flight at once (polled every 50 ms), freeing the thread; a failure
// is the result's error line, naming the round.
QFuture<LoadedRounds> fetchServerRoundsAsync(const ConnectionSettings &settings, const ServerRoundsQuery &query,
                                             RoundsOptions options);

}   // namespace qflame::qryn
