// A tab on a qryn server: pick a profile type, a label selector and a time range, see the timeline of the
// matching series and the merged flamegraph in the same views as a local file, compare two ranges (or two
// selectors) in the diff view, more of them as rounds, list the individual profiles of a range and open or compare
// them, and save the merged pprof.
//
// Every request goes through QrynClient, whose futures finish off the GUI thread's work; answers come back here
// through one LatestJob per kind of request: a newer request of a kind supersedes an older one (whose request is
// aborted and whose answer is dropped), and every failure is a line in the tab's message bar, with a Retry button:
// what the tab showed before stays. QrynExplorer.cpp: the query, its timeline and flamegraph; QrynExplorerCompare:
// comparisons and rounds; QrynExplorerProfiles: the list of profiles and what opens from it; QrynExplorerSession:
// the start, the remembered query, Retry, Save; QrynExplorerGroups: grouped by a label.
#pragma once

#include "controls/LatestJob.h"
#include "document/DocumentPane.h"
#include "qryn/ComparisonSide.h"
#include "qryn/ProfileList.h"
#include "qryn/QrynClient.h"
#include "qryn/ServerRounds.h"
#include "qryn/TimelineSteps.h"

#include <QPointer>
#include <QSet>

#include <functional>
#include <optional>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace qflame {
class DiffView;
class ProfilePane;
}

namespace qflame::qryn {

class ConnectionStore;
class LabelGroupView;
class LabelSelectorEdit;
class ProfileListView;
class RangeList;
class TimelineView;
class TimelineWidget;

class QrynExplorer : public DocumentPane {
    Q_OBJECT

public:
    enum Preset { Minutes15, Hour1, Hours6, Hours24, Days7, Custom };

    // `store` (not owned) keeps the saved connections; null = the application's settings and keychain.
    explicit QrynExplorer(ConnectionStore *store = nullptr, QWidget *parent = nullptr);
    ~QrynExplorer() override;

    QString title() const override;

    // Uses these settings from now on and asks the server for its profile types and label names.
    void setConnection(const ConnectionSettings &settings, const QString &name = QString());
    // Opens the connection dialog; connects when it is accepted.
    void connectDialog();

    void setProfileType(const QString &id);
    QString profileType() const;
    void setSelector(const QString &selector);
    QString selector() const;
    void setComparisonSelector(const QString &selector);
    void setPreset(Preset preset);
    void setCustomRange(const TimeRange &range);
    // The range of the query: the preset's window ending now, or the custom range.
    TimeRange range() const;
    void setGroupBy(const QString &label);   // "" = no grouping

    // The merged flamegraph of the current query, and the timeline of its window.
    void load();
    // The diff of baseline and comparison: the two ranges brushed on the timeline when both are set, else the
    // current range under the selector (baseline) and the comparison selector.
    void compare();
    // Asks for a rounds tab (roundsRequested) of the ranges compare() would compare: the brushed baseline and
    // comparison, else this range under the selector and the comparison selector, else this range (or the
    // baseline brush) alone; one observation per step of each (qryn/ServerRounds.h).
    void openRounds();
    // Writes the gzip pprof of the current query (SelectMergeProfile) to path; asks for a file when empty.
    void saveMerged(const QString &path = QString());

    // How a tab starts from the command line or the start page: a connection, its secrets read from the store
    // first when `secretsFromStore` (the saved connection `name`), and the query to load once the server has
    // listed its types; without a profile type, the connection's last query is restored and loaded, if it has one.
    struct Start {
        ConnectionSettings settings;
        QString name;
        bool secretsFromStore = false;
        QString profileType, selector;
        std::optional<TimeRange> range;   // none: the last hour
    };
    void start(const Start &start);
    // Fills in the last query loaded on this connection (ConnectionStore::lastQuery); false when there is none.
    bool restoreQuery();
    // Loads the query as soon as the server has listed its profile types (at once when it has).
    void loadWhenConnected();
    // Repeats the requests whose failure the message line shows; what the tab shows stays meanwhile.
    void retry();
    // Lists the individual profiles (qryn/ProfileList.h) of the brushed baseline, else of the query's window.
    void listProfiles();
    // One listed profile's flamegraph in the tab; two listed profiles compared (the first the baseline).
    void openEntry(const ProfileEntry &entry);
    void compareEntries(const ProfileEntry &baseline, const ProfileEntry &comparison);
    // Pins the brushed baseline (or the window) under the selector; the comparison selector (or the selector)
    // over the window. Two pinned: Compare compares them; more: Compare and Rounds open them as rounds.
    void addRange();
    void addSelector();
    // Grouped by a label (Group by): two of its values compared with the noise their steps measured (their
    // rounds fetched, then the merged trees per second); more values as a rounds tab, one round per value.
    void compareValues(const QStringList &values);
    LabelGroupView *labelGroupView() const { return m_groupView; }
    // A timeline as the server answered it: grouped by a label (groupBy not empty), the top values and "other"
    // on the chart and the table of values beside it; otherwise the series as they are.
    void showTimeline(const StepTimeline &timeline, const QString &groupBy);

    ProfilePane *profilePane() const { return m_profile; }
    DiffView *diffView() const { return m_diff; }
    TimelineWidget *timeline() const { return m_timeline; }
    TimelineView *timelineView() const { return m_timelineView; }
    LabelSelectorEdit *selectorEdit() const { return m_selector; }
    QComboBox *typeBox() const { return m_types; }
    QComboBox *groupByBox() const { return m_groupBy; }
    QString message() const;
    bool showingDiff() const;
    const MergedFlamegraph &merged() const { return m_merged; }
    QrynClient *client() const { return m_client; }
    QString connectionName() const { return m_connectionName; }
    ProfileListView *profileList() const { return m_profileList; }
    RangeList *rangeList() const { return m_ranges; }
    QPushButton *retryButton() const { return m_retry; }
    QPushButton *profilesButton() const { return m_profilesButton; }

Q_SIGNALS:
    // One of the explorer's requests ended; `what` is "types", "labels", "flamegraph", "timeline", "compare",
    // "rounds", "save", "profiles" (the list), "profile" (one listed profile opened) or "keychain" (a secret the
    // keychain refused); `message` is the line shown (an error or a warning), empty when all is well.
    void requestFinished(const QString &what, bool ok, const QString &message);
    // openRounds: these rounds of this server, for MainWindow to open in a rounds tab.
    void roundsRequested(const ConnectionSettings &settings, const ServerRoundsQuery &query);
    // compareValues of two values: the two windows' merged trees, compared per second with their measured noise.
    void compareTreesRequested(const QString &beforeName, const std::vector<std::shared_ptr<const Profile>> &before,
                               const QString &afterName, const std::vector<std::shared_ptr<const Profile>> &after,
                               std::shared_ptr<const MeasuredNoise> noise);

protected:
    void rebuild() override;

private:
    // What a comparison needs from its two sides; built off the GUI thread.
    struct DiffResult {
        std::shared_ptr<const DiffTree> diff;
        QString error;
    };
    // Two values of a label compared (QrynExplorerGroups.cpp): their rounds fetched, the noise they measured.
    struct ValuesFetched {
        std::vector<RoundInput> inputs;
        std::shared_ptr<const MeasuredNoise> noise;
        QString error;
    };
    void showMessage(const QString &text, bool error);
    void finished(const QString &what, bool ok, const QString &message);
    void loadTypes();
    void loadLabelNames();
    void loadTimeline(const ProfileQuery &query);
    void loadFlamegraph(const ProfileQuery &query);
    ProfileQuery query() const;
    // The diff of two queries (each with its samples:count sibling, for the noise band), shown in the diff view;
    // `what` names the request in requestFinished. Windows of different starts or lengths compare per second
    // unless `windowsAsRates` is false (two listed profiles: their windows are the seconds they were stamped in,
    // not their durations).
    void compareQueries(const ProfileQuery &base, const ProfileQuery &other, const QString &what,
                        bool windowsAsRates = true);
    void createMoreWidgets();   // the profile list, the pinned ranges, Retry
    LabelGroupView *createGroupView();
    void listProfilesOf(const ProfileQuery &query);
    void showMerged(MergedFlamegraph merged);   // in the profile pane; the previous one freed off the GUI thread
    void rememberQuery();
    std::function<void()> retryAction(const QString &what);
    // Shows `window` (default: the current preset's, ending now) in the range edits.
    void showPresetWindow(std::optional<TimeRange> window = std::nullopt);
    bool ready(QString *why) const;

    ConnectionStore *m_store;
    QPointer<QrynClient> m_client;
    QString m_connectionName;
    MergedFlamegraph m_merged;
    qint64 m_nowMs = 0;   // the "now" of the presets, fixed at each load so both requests share one window

    QLabel *m_connectionLabel;
    QComboBox *m_types;
    LabelSelectorEdit *m_selector;
    LabelSelectorEdit *m_comparisonSelector;
    QComboBox *m_presets;
    QDateTimeEdit *m_from, *m_to;
    QComboBox *m_groupBy;
    QPushButton *m_load, *m_compare, *m_rounds, *m_save;
    QLabel *m_message;
    TimelineView *m_timelineView;
    TimelineWidget *m_timeline;   // the view's chart
    QStackedWidget *m_stack;
    ProfilePane *m_profile;
    DiffView *m_diff;
    ProfileListView *m_profileList = nullptr;
    RangeList *m_ranges = nullptr;
    LabelGroupView *m_groupView = nullptr;
    QPushButton *m_retry = nullptr, *m_profilesButton = nullptr;

    QStringList m_serverTypes;            // what ProfileTypes listed last
    bool m_loadWhenConnected = false;
    QSet<QString> m_failed;               // the kinds of request whose failure Retry repeats
    ProfileQuery m_loadQuery, m_flameQuery, m_listQuery;   // the last of each, for Retry
    std::function<void()> m_lastCompare, m_lastEntry;
    QString m_lastSavePath;

    // The requests, one job per kind: the latest of a kind wins (controls/LatestJob.h).
    LatestJob<Result<QList<ProfileType>>> m_typesJob{this};
    LatestJob<Result<QStringList>> m_labelsJob{this}, m_valuesJob{this};   // label names; a label's values
    LatestJob<Result<QList<Series>>> m_seriesJob{this};
    LatestJob<Result<MergedFlamegraph>> m_flameJob{this}, m_entryJob{this};   // the query's; a listed profile's
    LatestJob<SideResult> m_sideJobs[2] = {LatestJob<SideResult>{this}, LatestJob<SideResult>{this}};
    LatestJob<DiffResult> m_compareJob{this};   // the two sides' diff, built on the pool
    LatestJob<Result<MergedFlamegraph>> m_saveFlameJob{this};   // Save: the true total first,
    LatestJob<Result<MergedProfile>> m_saveProfileJob{this};    // then the pprof
    LatestJob<Result<std::vector<ProfileEntry>>> m_listJob{this};
    LatestJob<ValuesFetched> m_groupValuesJob{this};   // compareValues of two values
};

}   // namespace qflame::qryn
