// The Time tab of a profile's tab (issue #35): the heatmap of its sample times (TimeChart) and, below it, the
// flamegraph of the time range dragged across it. The heatmap and the range's tree are computed on the pool
// (LatestJob), the model's numbers (model/time) painted. A profile without sample times says why there is none.
#pragma once

#include "controls/LatestJob.h"
#include "pprof/Profile.h"
#include "time/Heatmap.h"
#include "tree/CallTreeBuilder.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;

namespace qflame {

class FlameView;
class TimeChart;
class CallTree;
class FlameLayout;

class TimePane : public QWidget {
    Q_OBJECT

public:
    explicit TimePane(QWidget *parent = nullptr);
    ~TimePane() override;
    void setInputs(std::vector<std::shared_ptr<const Profile>> profiles, int sampleType, const BuildOptions &build);
    TimeChart *chart() const { return m_chart; }
    FlameView *flameView() const { return m_flame; }
    // Whether a computation is under way (for tests and screenshots).
    bool busy() const { return m_heatJob.running() || m_rangeJob.running(); }

private:
    struct HeatResult {
        Heatmap heatmap;
        QString error;
    };
    struct RangeResult {
        std::shared_ptr<const CallTree> tree;
        std::shared_ptr<const FlameLayout> layout;
        QString error;
        qint64 from = 0, to = 0;
    };
    void showRange(qint64 fromNanos, qint64 toNanos);

    QLabel *m_status;
    TimeChart *m_chart;
    FlameView *m_flame;
    std::shared_ptr<const Profile> m_profile;
    int m_type = 0;
    BuildOptions m_build;
    LatestJob<HeatResult> m_heatJob{this};
    LatestJob<RangeResult> m_rangeJob{this};
};

}   // namespace qflame
