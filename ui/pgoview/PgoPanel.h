// The PGO panel of a profile tab or a comparison tab: what `go build -pgo` would make of the profile (issue 18,
// "Window"). On top the readiness verdict (model/pgo/PgoReadiness), then the compiler's weighted call edges with a
// threshold that marks the hot ones live, the devirtualisation candidates, and for a comparison the inlining
// changes between the two sides and the hot edges that appeared or vanished. Buttons save the profile trimmed to
// what the compiler reads, and as `go tool preprofile` text.
//
// Everything shown is the model's: the edges, readiness and candidates are computed once per set of profiles on
// the thread pool; a threshold move only re-marks a copy of the edge list (markHotEdges), never rebuilds it.
#pragma once

#include "controls/LatestJob.h"
#include "pgo/InliningChanges.h"
#include "pgo/PgoCandidates.h"
#include "pgo/PgoEdges.h"
#include "pgo/PgoReadiness.h"
#include "tree/FrameTable.h"

#include <QTimer>
#include <QWidget>

#include <memory>
#include <vector>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace qflame {

class PgoEdgeModel;
class PgoEdgeFilter;
class PgoCandidatesModel;
class InliningModel;
class HotEdgeChangesModel;

using ProfileList = std::vector<std::shared_ptr<const Profile>>;

// What the panel shows of one set of profiles, computed off the GUI thread.
struct PgoAnalysis {
    std::shared_ptr<const PgoEdges> edges;
    std::vector<PgoReadinessLine> readiness;
    std::vector<PgoCallSite> candidates;
    std::shared_ptr<const InliningChanges> inlining;   // a comparison only
    QString error;           // the edges' ProfileError (no PGO sample type): nothing else is shown
    QString inliningError;   // the comparison's, when only that failed
};

// `base` empty: a profile; else the inlining changes from `base` to `profiles` too, hot at `threshold`.
PgoAnalysis analysePgo(const ProfileList &profiles, uint64_t inputBytes, const ProfileList &base = {},
                       double threshold = kPgoDefaultHotThreshold);

// The frames whose function is `caller` or `callee` (at any granularity: by the frame's function name), flagged
// by FrameId, for the flamegraph's setMatches.
std::vector<uint8_t> framesOfFunctions(const FrameTable &frames, const std::string &caller,
                                       const std::string &callee);

class PgoPanel : public QWidget {
    Q_OBJECT

public:
    explicit PgoPanel(QWidget *parent = nullptr);
    ~PgoPanel() override;

    // A profile tab's profiles (merged), and their size on disk (0: unknown). The same profiles again (a
    // rebuild for filters or granularity) keep what is shown.
    void setProfiles(ProfileList profiles, uint64_t inputBytes);
    // A comparison: the panel of `next`, and the inlining changes from `base` to `next`.
    void setComparison(ProfileList base, ProfileList next, uint64_t inputBytes);
    bool isComputing() const { return m_computing; }

    double threshold() const;
    void setThreshold(double percent);
    // "N of M edges hot, X% of the weight"; empty without edges.
    QString hotText() const;
    // The readiness lines as formatReadinessLine gives them, one a line, or the error.
    QString readinessText() const { return m_readinessPlain; }
    QString statusText() const;
    // The worst level among the readiness lines (and a comparison's inlining error, a warning); Ok while
    // computing, and when the profile is not one go build -pgo reads at all (no CPU sample type: error()).
    PgoLevel worstReadinessLevel() const;

    const PgoEdges *edges() const { return m_analysis.edges.get(); }
    const InliningChanges *inliningChanges() const { return m_analysis.inlining.get(); }
    PgoEdgeModel *edgeModel() const { return m_edgeModel; }
    QSortFilterProxyModel *edgeFilter() const;
    QTableView *edgeTable() const { return m_edgeTable; }
    QTableView *candidatesTable() const { return m_candidatesTable; }
    QTableView *inliningTable() const { return m_inliningTable; }
    QTableView *hotChangesTable() const { return m_hotChangesTable; }
    QLineEdit *filterEdit() const { return m_filter; }
    QTabWidget *tabs() const { return m_tabs; }
    QPushButton *saveTrimmedButton() const { return m_saveTrimmed; }
    QPushButton *savePreprofileButton() const { return m_savePreprofile; }

    // Save for go build -pgo (the trimmed pprof, encoded on the pool) and the preprofile text; an empty path asks
    // for one. The outcome is in the status line and in saved().
    void saveTrimmed(const QString &path = QString());
    void savePreprofile(const QString &path = QString());

Q_SIGNALS:
    void computed();   // a result (or an error) is shown
    // The selected edge's caller and callee; both empty when no edge is selected.
    void edgeSelected(const std::string &caller, const std::string &callee);
    // A comparison's inlining changes, for the diff flamegraph's marks; nullptr when there are none.
    void inliningChangesReady(std::shared_ptr<const InliningChanges> changes);
    void saved(bool ok, const QString &message);
    // A comparison's hot edges appeared / vanished, recomputed at a new threshold.
    void hotChangesUpdated();

protected:
    void changeEvent(QEvent *event) override;

private:
    void showReadiness();
    void start(ProfileList base, ProfileList profiles, uint64_t inputBytes);
    void show(PgoAnalysis analysis);
    void applyThreshold();
    void showInlining();
    void recomputeHotChanges();
    void setStatus(const QString &text, bool error);

    ProfileList m_profiles, m_base;
    uint64_t m_inputBytes = 0;
    PgoAnalysis m_analysis;
    LatestJob<PgoAnalysis> m_analysisJob{this};
    bool m_computing = false;   // until the newest job's result is shown
    LatestJob<QString> m_saveJob{this};   // the message; a leading '!' marks a failure
    // A comparison's hot edges that appeared or vanished depend on the threshold: recomputed on the pool once the
    // slider rests (the inlining changes themselves do not, and the diff flamegraph's marks stay).
    QTimer m_hotChangesTimer;
    LatestJob<std::shared_ptr<const InliningChanges>> m_hotChangesJob{this};
    double m_hotChangesThreshold = kPgoDefaultHotThreshold, m_pendingThreshold = kPgoDefaultHotThreshold;
    QString m_readinessPlain;

    QLabel *m_readiness;
    QSlider *m_slider;
    QDoubleSpinBox *m_spin;
    QLabel *m_hot;
    QLineEdit *m_filter;
    QPushButton *m_saveTrimmed, *m_savePreprofile;
    QTabWidget *m_tabs;
    PgoEdgeModel *m_edgeModel;
    PgoEdgeFilter *m_edgeFilter;
    QTableView *m_edgeTable;
    PgoCandidatesModel *m_candidatesModel;
    QTableView *m_candidatesTable;
    InliningModel *m_inliningModel;
    QTableView *m_inliningTable;
    HotEdgeChangesModel *m_hotChangesModel;
    QTableView *m_hotChangesTable;
    QLabel *m_status;
};

}   // namespace qflame
