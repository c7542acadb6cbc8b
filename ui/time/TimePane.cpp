#include "time/TimePane.h"

#include "compare/DiffView.h"
#include "controls/SearchBar.h"
#include "controls/SecondaryPanes.h"
#include "flame/FlameView.h"
#include "io/ReadOptions.h"
#include "layout/FlameLayout.h"
#include "time/FlameChartView.h"
#include "time/RangeDiff.h"
#include "time/TimeChart.h"
#include "time/TimeRange.h"
#include "time/Timeline.h"
#include "tree/CallTree.h"
#include "tree/Search.h"

#include <QLabel>
#include <QRegularExpression>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace qflame {

namespace {

// "1 s to 2 s", or for a union "3 ranges, 0.06 s in all, from 0.24 s to 2.62 s", into `text`'s %1.
QString describe(const TimeRanges &ranges, const QString &text)
{
    if (ranges.empty())
        return text.arg(TimePane::tr("nothing"));
    if (ranges.size() == 1)
        return text.arg(TimePane::tr("%1 s to %2 s").arg(QString::fromStdString(secondsText(double(ranges[0].fromNanos))), QString::fromStdString(secondsText(double(ranges[0].toNanos)))));
    auto seconds = [](int64_t nanos) { return QString::fromStdString(secondsText(double(nanos))); };
    return text.arg(TimePane::tr("%1 ranges, %2 s in all, from %3 s to %4 s")
                        .arg(ranges.size())
                        .arg(seconds(rangesLength(ranges)), seconds(ranges.front().fromNanos),
                             seconds(ranges.back().toNanos)));
}

}   // namespace

TimePane::TimePane(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_chart = new TimeChart;
    m_flame = new FlameView;
    m_right = new QStackedWidget;
    m_right->addWidget(m_flame);   // the DiffView joins it at the first comparison: most tabs never compare
    m_flameChart = new FlameChartView;
    // The heatmap with the range's flamegraph beside it, the flame chart below both: time is read across the
    // whole width there.
    m_top = new QSplitter(Qt::Horizontal);
    m_top->addWidget(m_chart);
    m_top->addWidget(m_right);
    m_top->setStretchFactor(0, 1);
    m_top->setStretchFactor(1, 1);
    m_top->setCollapsible(0, false);   // a wide comparison bar must not squeeze the heatmap out of sight
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_top);
    split->addWidget(m_flameChart);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);   // the chart's lanes need the height
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    connect(m_chart, &TimeChart::rangeSelected, this, [this](qint64 from, qint64 to) {
        showRanges({TimeRange{from, to}});
        m_flameChart->setView(double(from), double(to));
        m_chart->setViewMarker(m_flameChart->viewFrom(), m_flameChart->viewTo());
    });
    // A union of cells: its flamegraph, and the chart's view from its first cell to its last.
    connect(m_chart, &TimeChart::selectionChanged, this, [this](const TimeRanges &ranges) {
        showRanges(ranges);
        if (!ranges.empty()) {
            m_flameChart->setView(double(ranges.front().fromNanos), double(ranges.back().toNanos));
            m_chart->setViewMarker(m_flameChart->viewFrom(), m_flameChart->viewTo());
        }
    });
    connect(m_chart, &TimeChart::secondRangeSelected, this, &TimePane::showDiff);
    connect(m_flameChart, &FlameChartView::viewChanged, m_chart, &TimeChart::setViewMarker);
    connect(m_flameChart, &FlameChartView::rangeSelected, this, [this](qint64 from, qint64 to) {
        m_chart->setSelection(from, to);
        showRanges({TimeRange{from, to}});
    });
    connect(m_flameChart, &FlameChartView::boxClicked, this, [this](const QString &frame) { selectFunction(frame); });
}

TimePane::~TimePane() = default;

bool TimePane::showsDiff() const
{
    return m_diff && m_right->currentWidget() == m_diff;
}

QString TimePane::statusText() const
{
    return m_status->text();
}

void TimePane::setInputs(std::vector<std::shared_ptr<const Profile>> profiles, int sampleType, const BuildOptions &build)
{
    m_heatJob.drop();
    m_rangeJob.drop();
    m_chartJob.drop();
    m_diffJob.drop();
    m_profile = profiles.size() == 1 ? profiles.front() : nullptr;
    m_type = sampleType;
    m_build = build;
    m_first.clear();
    m_flame->setTree(nullptr);
    m_right->setCurrentWidget(m_flame);
    m_flameChart->setChart(nullptr);
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
            // The flame chart's build (seconds on an hour) starts once the heatmap is in: the heatmap is what the
            // tab shows first, and on two cores the two jobs side by side delayed it by half (issue #35's 1 s).
            if (!r.error.isEmpty()) {
                m_status->setText(r.error);
                buildChart();
                return;
            }
            m_status->setText(tr("%1 columns of %2 ms, %3 rows; at most %4 per cell. Drag across the heatmap to see "
                                 "the flamegraph of that time, Shift+drag a second range to compare it with the first.")
                                  .arg(r.heatmap.columns)
                                  .arg(r.heatmap.columnNanos / 1000000)
                                  .arg(r.heatmap.rows)
                                  .arg(r.heatmap.maxValue));
            m_chart->setHeatmap(std::move(r.heatmap));
            buildChart();
        });
}

void TimePane::buildChart()
{
    const auto profile = m_profile;
    FlameChartOptions chartOptions;
    chartOptions.build = m_build;
    chartOptions.build.progress = {};
    m_chartJob.start(
        [profile, chartOptions] {
            ChartResult r;
            try {
                r.chart = FlameChart::build(profile, chartOptions);
            } catch (const std::exception &e) {
                r.error = QString::fromUtf8(e.what());
            }
            return r;
        },
        [this](ChartResult r) {
            if (!r.error.isEmpty()) {
                m_status->setText(r.error);
                return;
            }
            m_flameChart->setChart(std::move(r.chart));
            if (!m_first.empty())
                m_flameChart->setView(double(m_first.front().fromNanos), double(m_first.back().toNanos));
            m_chart->setViewMarker(m_flameChart->viewFrom(), m_flameChart->viewTo());
            applySearch();
        });
}

void TimePane::showRanges(const TimeRanges &ranges)
{
    if (!m_profile)
        return;
    m_first = ranges;
    m_diffJob.drop();
    if (ranges.empty()) {   // the last cell taken out
        m_rangeJob.drop();
        m_right->setCurrentWidget(m_flame);
        m_flame->setTree(nullptr);
        m_status->setText(tr("No time selected: drag across the heatmap, or Ctrl+click cells."));
        return;
    }
    const auto profile = m_profile;
    const size_t type = size_t(m_type);
    const BuildOptions build = m_build;
    m_rangeJob.start(
        [profile, type, build, ranges] {
            RangeResult r;
            r.ranges = ranges;
            try {
                const auto cut = profileInRanges(profile, ranges);
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
            m_status->setText(describe(r.ranges, tr("The flamegraph of %1.")) +
                              (r.ranges.size() == 1 ? tr(" Ctrl+click or Ctrl+drag cells to add them.") : QString()));
            m_right->setCurrentWidget(m_flame);
            m_flame->setTree(r.tree, r.layout);
            applySearch();
            if (!m_selectedFrame.isEmpty())
                selectFunction(m_selectedFrame);
        });
}

void TimePane::showDiff(qint64 fromNanos, qint64 toNanos)
{
    if (!m_profile || m_first.empty())
        return;
    const auto profile = m_profile;
    const size_t type = size_t(m_type);
    const BuildOptions build = m_build;
    const TimeRanges before = m_first, after{TimeRange{fromNanos, toNanos}};
    m_status->setText(tr("Comparing the two ranges..."));
    m_diffJob.start(
        [profile, type, build, before, after] {
            DiffResult r;
            try {
                // Per second: the ranges may differ in length; the noise rule is the comparison tabs'.
                DiffOptions options;
                options.normalization = Normalization::PerSecond;
                r.diff = diffTimeRanges(profile, before, after, type, build, options);
            } catch (const std::exception &e) {
                r.error = QString::fromUtf8(e.what());
            }
            return r;
        },
        [this, before, after](DiffResult r) {
            if (!r.error.isEmpty()) {
                m_status->setText(r.error);
                return;
            }
            m_status->setText(tr("A (%1) against B (%2), per second: red is more in B, green less, hatched within "
                                 "sampling noise. Drag again to leave the comparison.")
                                  .arg(describe(before, QStringLiteral("%1")), describe(after, QStringLiteral("%1"))));
            if (!m_diff) {
                m_diff = new DiffView;
                m_right->addWidget(m_diff);
                // The diff flamegraph takes the height; its table is a fold away, as in a comparison tab.
                m_diff->secondaryPanes()->setCollapsed(true);
                // One search field in the tab: the profile tab's, which drives the diff's own (applySearch), so
                // the diff flamegraph, both sides and the table dim and filter as in a comparison tab.
                m_diff->takeSearchBar()->hide();
                applySearch();
            }
            // The comparison's bar and legend need the width more than the heatmap does.
            const QList<int> sizes = m_top->sizes();
            const int width = sizes.value(0) + sizes.value(1);
            if (sizes.value(1) < width * 3 / 5)
                m_top->setSizes({width * 2 / 5, width - width * 2 / 5});
            m_diff->setDiff(std::move(r.diff));
            m_right->setCurrentWidget(m_diff);
        });
}

void TimePane::selectFunction(const QString &frame)
{
    m_selectedFrame = frame;
    const CallTree *tree = m_flame->graph()->tree();
    if (!tree)
        return;
    const std::string name = frame.toStdString();
    const FrameTable &frames = tree->frames();
    for (FrameId f = 1; f < frames.size(); ++f)
        if (frames.label(f) == name) {
            m_flame->graph()->setHighlightedFrame(f);
            return;
        }
    m_flame->graph()->setHighlightedFrame(std::nullopt);
}

void TimePane::setSearch(const QString &pattern, Qt::CaseSensitivity cs)
{
    m_pattern = pattern;
    m_case = cs;
    applySearch();
}

void TimePane::applySearch()
{
    const QRegularExpression re(m_pattern, m_case == Qt::CaseInsensitive ? QRegularExpression::CaseInsensitiveOption
                                                                          : QRegularExpression::NoPatternOption);
    const bool on = !m_pattern.isEmpty() && re.isValid();
    if (const FlameChart *c = m_flameChart->chart()) {
        std::vector<uint8_t> matches;
        if (on) {
            matches.assign(c->frames().size(), 0);
            for (FrameId f = 1; f < c->frames().size(); ++f)
                matches[f] = re.match(QString::fromStdString(c->frames().label(f))).hasMatch();
        }
        m_flameChart->setMatches(std::move(matches));
    }
    if (m_diff) {
        // Its bar has no case toggle to set from here: the case goes into the pattern.
        const QString pattern = on && m_case == Qt::CaseInsensitive ? QStringLiteral("(?i)") + m_pattern : m_pattern;
        if (m_diff->searchBar()->pattern() != pattern)
            m_diff->searchBar()->setPattern(pattern);
    }
    if (const CallTree *tree = m_flame->graph()->tree()) {
        const SearchResult r = on ? Search::run(*tree, re) : SearchResult{};
        m_flame->graph()->setMatches(on ? std::vector<uint8_t>(r.frameMatches.begin(), r.frameMatches.end())
                                        : std::vector<uint8_t>{});
    }
}

}   // namespace qflame
