#include "time/TimePane.h"

#include "flame/FlameView.h"
#include "io/ReadOptions.h"
#include "layout/FlameLayout.h"
#include "time/TimeChart.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"
#include "tree/CallTree.h"
#include "tree/SampleFilter.h"

#include <QLabel>
#include <QVBoxLayout>

namespace qflame {

TimePane::TimePane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_chart = new TimeChart(this);
    m_flame = new FlameView(this);
    layout->addWidget(m_status);
    layout->addWidget(m_chart, 2);
    layout->addWidget(m_flame, 3);
    connect(m_chart, &TimeChart::rangeSelected, this, &TimePane::showRange);
}

TimePane::~TimePane() = default;

void TimePane::setInputs(std::vector<std::shared_ptr<const Profile>> profiles, int sampleType, const BuildOptions &build)
{
    m_heatJob.drop();
    m_rangeJob.drop();
    m_profile = profiles.size() == 1 ? profiles.front() : nullptr;
    m_type = sampleType;
    m_build = build;
    m_flame->setTree(nullptr);
    if (!m_profile || !m_profile->timeline || sampleType < 0) {
        m_chart->setHeatmap({});
        m_status->setText(profiles.size() > 1
                              ? tr("Several files merged: their times do not share one clock, so there is no heatmap.")
                              : tr("This profile has no sample times: perf script and Chrome .cpuprofile files have "
                                   "them (pprof and folded stacks do not)."));
        return;
    }
    m_status->setText(tr("Computing the heatmap..."));
    const auto profile = m_profile;
    HeatmapOptions options;
    options.type = size_t(sampleType);
    // About a thousand columns at most: one second each, or wider for long recordings.
    const int64_t span = profile->timeline->spanNanos;
    while (span / options.columnNanos > 1000)
        options.columnNanos *= 2;
    m_heatJob.start(
        [profile, options] {
            HeatResult r;
            try {
                r.heatmap = computeHeatmap(*profile, options);
            } catch (const std::exception &e) {
                r.error = QString::fromUtf8(e.what());
            }
            return r;
        },
        [this](HeatResult r) {
            if (!r.error.isEmpty()) {
                m_status->setText(r.error);
                return;
            }
            m_status->setText(tr("%1 columns of %2 ms, %3 rows; at most %4 per cell. Drag across the heatmap to see "
                                 "the flamegraph of that time.")
                                  .arg(r.heatmap.columns)
                                  .arg(r.heatmap.columnNanos / 1000000)
                                  .arg(r.heatmap.rows)
                                  .arg(r.heatmap.maxValue));
            m_chart->setHeatmap(std::move(r.heatmap));
        });
}

void TimePane::showRange(qint64 fromNanos, qint64 toNanos)
{
    if (!m_profile)
        return;
    const auto profile = m_profile;
    const size_t type = size_t(m_type);
    const BuildOptions build = m_build;
    m_rangeJob.start(
        [profile, type, build, fromNanos, toNanos] {
            RangeResult r;
            r.from = fromNanos, r.to = toNanos;
            try {
                const auto cut = profileInRange(profile, TimeRange{fromNanos, toNanos});
                r.tree = CallTreeBuilder::build({cut}, type, build);
                r.layout = std::make_shared<const FlameLayout>(*r.tree);
            } catch (const std::exception &e) {
                r.error = QString::fromUtf8(e.what());
            }
            return r;
        },
        [this](RangeResult r) {
            if (!r.error.isEmpty()) {
                m_status->setText(r.error);
                return;
            }
            m_status->setText(tr("The flamegraph of %1 s to %2 s.").arg(double(r.from) / 1e9).arg(double(r.to) / 1e9));
            m_flame->setTree(r.tree, r.layout);
        });
}

}   // namespace qflame
