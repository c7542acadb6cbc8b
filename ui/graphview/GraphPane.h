// The Graph tab of a profile or comparison tab: pprof's call graph (model/graph) built and laid out by Graphviz
// on the thread pool when the tab is first shown or its inputs change, then painted by GraphCanvas. The node
// count, a search (regular expression) and a focus on a node (double-click: the graph rebuilt with pprof's focus
// on that function, re-pruned around it) are its controls.
#pragma once

#include "controls/LatestJob.h"
#include "diff/DiffTable.h"
#include "graph/GraphLayout.h"
#include "pgo/InliningChanges.h"
#include "tree/CallTreeBuilder.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace qflame {

class GraphCanvas;

class GraphPane : public QWidget {
    Q_OBJECT
public:
    explicit GraphPane(QWidget *parent = nullptr);
    ~GraphPane() override;

    using Profiles = std::vector<std::shared_ptr<const Profile>>;
    // A profile's graph (filters as the tab has them), or a comparison's (`before` not empty).
    void setInputs(Profiles before, Profiles after, int sampleType, Granularity granularity, SampleFilters filters,
                   double noiseK = 2.0);
    // A comparison's under the diff's normalisation and noise setting (the comparison tab's DiffOptions): the
    // model scales the values as the diff does (CallGraph::buildDiff), and the status line states it.
    void setInputs(Profiles before, Profiles after, int sampleType, Granularity granularity, SampleFilters filters,
                   const DiffOptions &diff);
    // A comparison's inlining changes (the PGO panel's) marked on their edges, now and in later builds.
    void setInliningChanges(std::shared_ptr<const InliningChanges> changes);
    // A comparison opened from rounds: the rounds' measured noise classes the nodes it names (graph/GraphMarks.h),
    // the graph's values scaled by `scaleBefore`/`scaleAfter` into its unit. nullptr: Poisson's for all.
    void setMeasuredNoise(std::shared_ptr<const MeasuredNoise> noise, double scaleBefore = 1, double scaleAfter = 1);
    // Selects the node of the function `name` (a row or frame selected elsewhere); none when the graph has none.
    void selectFunction(const QString &name);
    GraphCanvas *canvas() const { return m_canvas; }
    const GraphLayout *graphLayout() const;
    bool isBuilding() const { return m_job.running(); }
    // The name of the selected node ("" when none).
    QString selectedName() const;

Q_SIGNALS:
    void graphReady();                         // a new layout is shown
    void nodeSelected(const QString &name);   // the function of the selected node, for the other views

protected:
    void showEvent(QShowEvent *) override;

private:
    void rebuild();
    struct Built {   // the layout, or why there is none
        std::shared_ptr<const GraphLayout> layout;
        QString error;
    };
    void showBuilt(const Built &built);
    void focusOn(int node);
    void updateSearch();

    Profiles m_before, m_after;
    int m_sampleType = -1;
    Granularity m_granularity = Granularity::Functions;
    SampleFilters m_filters;
    DiffOptions m_diff;   // normalisation and noise K of a comparison
    std::shared_ptr<const InliningChanges> m_inlining;
    std::shared_ptr<const MeasuredNoise> m_measured;
    double m_measuredScale[2] = {1, 1};
    QString m_focus;            // the focused function's name, "" for none
    bool m_stale = false;
    int m_builtNodeCount = -1;
    GraphCanvas *m_canvas;
    QSpinBox *m_nodeCount;
    QLineEdit *m_search;
    QLabel *m_status, *m_focusLabel;
    QPushButton *m_clearFocus;
    LatestJob<Built> m_job{this};
};

}   // namespace qflame
