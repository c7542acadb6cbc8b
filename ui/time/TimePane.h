// The Time tab of a profile's tab (issue #35): the heatmap of its sample times (TimeChart), beside it the
// flamegraph of the time range dragged across it (or of the union of cells Ctrl added to it; or, after a Shift+drag of a second range, the diff of the two:
// the comparison tabs' DiffView on model/time's RangeDiff), and below them the flame chart (FlameChartView) with
// the threads as lanes. Selecting a range in the heatmap zooms the chart to it; dragging along the chart's axis
// selects that range in the heatmap; the chart's view is marked under the heatmap; a box clicked selects its
// function in the range's flamegraph. The tab's search dims the chart and the flamegraph alike, and in a
// comparison the DiffView's flamegraphs and table (as its own search bar would). Every number
// comes from the model, computed on the pool (LatestJob). A profile without sample times says why there is none.
#pragma once

#include "controls/LatestJob.h"
#include "pprof/Profile.h"
#include "time/FlameChart.h"
#include "time/Heatmap.h"
#include "tree/CallTreeBuilder.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QSplitter;
class QStackedWidget;

namespace qflame {

class CallTree;
class DiffTree;
class DiffView;
class FlameChartView;
class FlameLayout;
class FlameView;
class TimeChart;

class TimePane : public QWidget {
    Q_OBJECT

public:
    explicit TimePane(QWidget *parent = nullptr);
    ~TimePane() override;
    void setInputs(std::vector<std::shared_ptr<const Profile>> profiles, int sampleType, const BuildOptions &build);
    // The tab's search (a regex over frame names, as the flamegraph's): empty clears it.
    void setSearch(const QString &pattern, Qt::CaseSensitivity cs);
    TimeChart *chart() const { return m_chart; }
    FlameView *flameView() const { return m_flame; }
    DiffView *diffView() const { return m_diff; }   // null until two ranges are compared
    FlameChartView *flameChart() const { return m_flameChart; }
    bool showsDiff() const;
    // The function of the box last clicked in the chart, outlined in the range's flamegraph where it occurs.
    QString selectedFunction() const { return m_selectedFrame; }
    QString statusText() const;
    // Whether a computation is under way (for tests and screenshots).
    bool busy() const
    {
        return m_heatJob.running() || m_rangeJob.running() || m_chartJob.running() || m_diffJob.running();
    }

private:
    struct HeatResult {
        Heatmap heatmap;
        QString error;
    };
    struct RangeResult {
        std::shared_ptr<const CallTree> tree;
        std::shared_ptr<const FlameLayout> layout;
        QString error;
        TimeRanges ranges;
    };
    struct ChartResult {
        std::shared_ptr<const FlameChart> chart;
        QString error;
    };
    struct DiffResult {
        std::shared_ptr<const DiffTree> diff;
        QString error;
    };
    void showRanges(const TimeRanges &ranges);
    void buildChart();   // the flame chart of m_profile, on the pool
    void showDiff(qint64 fromNanos, qint64 toNanos);
    void selectFunction(const QString &frame);
    void applySearch();

    QLabel *m_status;
    TimeChart *m_chart;
    QSplitter *m_top;
    QStackedWidget *m_right;
    FlameView *m_flame;
    DiffView *m_diff = nullptr;
    FlameChartView *m_flameChart;
    std::shared_ptr<const Profile> m_profile;
    int m_type = 0;
    BuildOptions m_build;
    TimeRanges m_first;   // the first selection
    QString m_pattern, m_selectedFrame;
    Qt::CaseSensitivity m_case = Qt::CaseSensitive;
    LatestJob<HeatResult> m_heatJob{this};
    LatestJob<RangeResult> m_rangeJob{this};
    LatestJob<ChartResult> m_chartJob{this};
    LatestJob<DiffResult> m_diffJob{this};
};

}   // namespace qflame
