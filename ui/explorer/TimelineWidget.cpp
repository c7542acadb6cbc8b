#include "explorer/TimelineWidget.h"

#include <QDateTime>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace qflame::qryn {

namespace {

constexpr int kMargin = 6;
constexpr int kSwatch = 10;
constexpr int kHeadroom = 4;   // pixels above the axis' top, so a line at the top is not hidden by the frame

// Legend text wraps between words; a word wider than the line (a long label value) wraps anywhere.
int legendFlags(const QFontMetrics &fm, const QString &text, int width)
{
    for (const QString &word : text.split(QLatin1Char(' ')))
        if (fm.horizontalAdvance(word) > width)
            return Qt::TextWordWrap | Qt::TextWrapAnywhere;
    return Qt::TextWordWrap;
}

QString timeText(qint64 ms, bool seconds)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(seconds ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm"));
}

}   // namespace

TimelineWidget::TimelineWidget(QWidget *parent) : QWidget(parent)
{
    setMouseTracking(true);   // the hover readout
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TimelineWidget::setWindow(const TimeRange &window)
{
    m_window = window;
    update();
}

void TimelineWidget::setTimeline(StepTimeline timeline)
{
    m_timeline = std::move(timeline);
    m_legendTexts = legendTexts(m_timeline.series);
    m_hoverStep = -1;
    layoutLegend();
    update();
    Q_EMIT rangesChanged();
}

void TimelineWidget::setStacked(bool stacked)
{
    m_stacked = stacked;
    update();
}

void TimelineWidget::setBrush(Brush which, std::optional<TimeRange> range)
{
    m_brush[which] = range;
    update();
    Q_EMIT rangesChanged();
}

void TimelineWidget::clearBrushes()
{
    m_brush[0].reset();
    m_brush[1].reset();
    update();
    Q_EMIT rangesChanged();
}

std::optional<RateEstimate> TimelineWidget::rangeEstimate(Brush which) const
{
    if (!m_brush[which] || m_timeline.steps.empty())
        return std::nullopt;
    return qryn::rangeEstimate(m_timeline, *m_brush[which]);
}

QString TimelineWidget::rangeText(Brush which) const
{
    const auto e = rangeEstimate(which);
    if (!e || !e->rateKnown())
        return QString();
    return tr("%1 %2 (%3)")
        .arg(which == Baseline ? tr("baseline") : tr("comparison"),
             QString::fromStdString(formatWithError(e->rate, e->standardError, m_timeline.unit)),
             e->k == 1 ? tr("1 step") : tr("%1 steps").arg(e->k));
}

QStringList TimelineWidget::legendTexts(const std::vector<StepSeries> &series)
{
    // A label name tells the series apart when its value (or its presence) is not the same in all of them.
    std::map<QString, std::set<QString>> values;
    std::map<QString, size_t> present;
    for (const StepSeries &s : series)
        for (const LabelPair &l : s.labels) {
            values[l.name].insert(l.value);
            ++present[l.name];
        }
    std::set<QString> differing;
    for (const auto &[name, v] : values)
        if (v.size() > 1 || present[name] != series.size())
            differing.insert(name);
    QStringList out;
    for (const StepSeries &s : series) {
        QStringList parts;
        std::set<QString> missing = differing;
        for (const LabelPair &l : s.labels) {
            missing.erase(l.name);
            if (series.size() == 1 || differing.count(l.name))
                parts << l.name + QLatin1Char('=') + l.value;
        }
        for (const QString &name : missing)   // the series has no such label, which tells it apart too
            parts << tr("(no %1)").arg(name);
        out << (parts.isEmpty() ? tr("all") : parts.join(QStringLiteral(", ")));
    }
    return out;
}

QString TimelineWidget::readoutText(int step) const
{
    if (step < 0 || size_t(step) >= m_timeline.steps.size())
        return QString();
    const TimeRange &s = m_timeline.steps[size_t(step)];
    const bool seconds = m_timeline.stepSeconds % 60 != 0 || s.startMs % 60'000 != 0;
    QStringList lines{QStringLiteral("%1 – %2").arg(timeText(s.startMs, seconds), timeText(s.endMs, seconds))};
    for (size_t i = 0; i < m_timeline.series.size(); ++i)
        lines << QStringLiteral("%1: %2").arg(m_legendTexts.value(int(i)),
                                              QString::fromStdString(formatUnitValue(
                                                  m_timeline.series[i].values[size_t(step)], m_timeline.unit)));
    if (m_timeline.series.size() > 1)
        lines << tr("total: %1").arg(QString::fromStdString(
                     formatUnitValue(m_timeline.totalValues[size_t(step)], m_timeline.unit)));
    return lines.join(QLatin1Char('\n'));
}

bool TimelineWidget::dark() const
{
    return palette().color(QPalette::Window).lightness() < 128;
}

QColor TimelineWidget::seriesColor(int index) const
{
    // Distinguishable hues; brighter on a dark background, where the light table's blues sink.
    static const QColor light[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xd6, 0x27, 0x28), QColor(0x2c, 0xa0, 0x2c),
                                   QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0x17, 0xbe, 0xcf),
                                   QColor(0xbc, 0xbd, 0x22), QColor(0xe3, 0x77, 0xc2)};
    static const QColor darkColors[] = {QColor(0x5d, 0xad, 0xec), QColor(0xff, 0x6b, 0x6b), QColor(0x6b, 0xd0, 0x6b),
                                        QColor(0xc3, 0x9b, 0xf0), QColor(0xe0, 0xa8, 0x7a), QColor(0x4d, 0xe0, 0xee),
                                        QColor(0xe8, 0xe8, 0x5a), QColor(0xff, 0x9e, 0xe0)};
    const int n = int(std::size(light));
    return dark() ? darkColors[index % n] : light[index % n];
}

QColor TimelineWidget::brushColor(Brush which) const
{
    if (which == Baseline)
        return dark() ? QColor(90, 150, 255, 60) : QColor(30, 110, 230, 45);
    return dark() ? QColor(255, 160, 60, 60) : QColor(240, 120, 20, 50);
}

void TimelineWidget::layoutLegend()
{
    m_legend.clear();
    m_legendHidden = 0;
    const QFontMetrics fm = fontMetrics();
    const int width = std::max(50, this->width() - 2 * kMargin);
    const int maxHeight = std::max(fm.height(), height() * 2 / 5);   // the plot keeps most of the height
    int x = 0, y = 0, rowHeight = fm.height();
    for (int i = 0; i < m_legendTexts.size(); ++i) {
        const int textWidth = width - kSwatch - 4;
        // Wrapped, never elided: a long label set takes more lines.
        const int flags = legendFlags(fm, m_legendTexts[i], textWidth);
        const QRect text = fm.boundingRect(QRect(0, 0, textWidth, 10000), flags, m_legendTexts[i]);
        const int w = kSwatch + 4 + text.width() + 14;
        if (x > 0 && x + w > width) {
            x = 0;
            y += rowHeight + 2;
            rowHeight = fm.height();
        }
        if (y + text.height() > maxHeight) {
            m_legendHidden = int(m_legendTexts.size()) - i;
            break;
        }
        m_legend.push_back({QRect(kMargin + x, y, std::min(w, width), text.height()), m_legendTexts[i], i, flags});
        rowHeight = std::max(rowHeight, text.height());
        x += w;
    }
    m_legendHeight = m_legend.isEmpty() ? 0 : y + rowHeight + (m_legendHidden ? fm.height() + 2 : 0);
}

void TimelineWidget::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    layoutLegend();
}

double TimelineWidget::maxShown() const
{
    double max = 0;
    auto take = [&max](double v) {
        if (std::isfinite(v))
            max = std::max(max, v);
    };
    if (m_stacked || m_timeline.series.size() <= 1) {
        for (double v : m_timeline.totalValues)
            take(v);
    } else {
        for (const StepSeries &s : m_timeline.series)
            for (double v : s.values)
                take(v);
    }
    for (int b = 0; b < 2; ++b)
        if (const auto e = rangeEstimate(Brush(b)); e && e->rateKnown())
            take(e->rate + (e->errorKnown() ? e->standardError : 0));
    return max;
}

TimelineWidget::Scale TimelineWidget::scaleFor(int plotHeight) const
{
    Scale s;
    const double max = maxShown();
    const DisplayScale d = displayScale(m_timeline.unit, max);
    s.divisor = d.divisor;
    s.unit = QString::fromStdString(d.text);
    s.axis = valueAxis(max / d.divisor, std::clamp(plotHeight / (2 * fontMetrics().height()), 1, 6));
    return s;
}

ValueAxis TimelineWidget::valueAxisNow() const
{
    return scaleFor(plotRect().height()).axis;
}

QString TimelineWidget::unitText() const
{
    return m_timeline.steps.empty() ? QString() : scaleFor(plotRect().height()).unit;
}

QRect TimelineWidget::plotRect() const
{
    const QFontMetrics fm = fontMetrics();
    const int top = kMargin + fm.height() + 2;   // the unit above the axis
    const int bottom = height() - kMargin - fm.height() - 4 - (m_legendHeight ? m_legendHeight + 4 : 0);
    const int plotHeight = std::max(10, bottom - top);
    int labelWidth = 0;
    if (!m_timeline.steps.empty())
        for (const ValueTick &t : scaleFor(plotHeight).axis.ticks)
            labelWidth = std::max(labelWidth, fm.horizontalAdvance(t.label));
    const int left = kMargin + labelWidth + 6;
    return QRect(QPoint(left, top), QPoint(std::max(left + 10, width() - kMargin - 1), top + plotHeight - 1));
}

qint64 TimelineWidget::timeAt(int x) const
{
    const QRect r = plotRect();
    const double f = std::clamp(double(x - r.left()) / std::max(1, r.width()), 0.0, 1.0);
    return m_window.startMs + qint64(std::llround(f * double(m_window.lengthMs())));
}

int TimelineWidget::xAt(qint64 ms) const
{
    const QRect r = plotRect();
    if (m_window.lengthMs() <= 0)
        return r.left();
    return r.left() + int(std::lround(double(ms - m_window.startMs) / double(m_window.lengthMs()) * r.width()));
}

int TimelineWidget::yAt(double value, const QRect &plot, const Scale &scale) const
{
    const double f = std::clamp(value / scale.divisor / scale.axis.top, 0.0, 1.0);
    return plot.bottom() - int(std::lround(f * (plot.height() - 1 - kHeadroom)));
}

void TimelineWidget::paintSeries(QPainter &p, const QRect &plot, const Scale &scale)
{
    const size_t n = m_timeline.steps.size();
    if (m_stacked) {
        // Bars per step, each series on top of the ones before it: the top is the total.
        std::vector<double> base(n, 0.0);
        for (size_t i = 0; i < m_timeline.series.size(); ++i) {
            QColor c = seriesColor(int(i));
            c.setAlpha(210);
            for (size_t j = 0; j < n; ++j) {
                const double v = m_timeline.series[i].values[j];
                if (!std::isfinite(v) || v == 0)
                    continue;
                const int x0 = xAt(m_timeline.steps[j].startMs), x1 = xAt(m_timeline.steps[j].endMs);
                const int yTop = yAt(base[j] + v, plot, scale), yBottom = yAt(base[j], plot, scale);
                p.fillRect(QRect(QPoint(x0, yTop), QPoint(std::max(x0, x1 - 1), yBottom)), c);
                base[j] += v;
            }
        }
        return;
    }
    // Overlaid: each series a line over its steps (a step is a level, so the line is a staircase); a gauge's step
    // without a profile breaks it. One series is filled below, which reads better than a thin line alone.
    for (size_t i = 0; i < m_timeline.series.size(); ++i) {
        const StepSeries &s = m_timeline.series[i];
        QPainterPath line;
        bool open = false;
        for (size_t j = 0; j < n; ++j) {
            const double v = s.values[j];
            if (!std::isfinite(v)) {
                open = false;
                continue;
            }
            const QPointF a(xAt(m_timeline.steps[j].startMs), yAt(v, plot, scale));
            const QPointF b(xAt(m_timeline.steps[j].endMs), a.y());
            open ? line.lineTo(a) : line.moveTo(a);
            line.lineTo(b);
            open = true;
        }
        const QColor c = seriesColor(int(i));
        if (m_timeline.series.size() == 1) {
            QPainterPath area = line;
            area.lineTo(area.currentPosition().x(), plot.bottom());
            area.lineTo(xAt(m_timeline.steps.front().startMs), plot.bottom());
            QColor fill = c;
            fill.setAlpha(dark() ? 70 : 55);
            p.fillPath(area, fill);
        }
        p.setPen(QPen(c, 1.6));
        p.setBrush(Qt::NoBrush);
        p.drawPath(line);
    }
}

void TimelineWidget::paintBrushes(QPainter &p, const QRect &plot, const Scale &scale)
{
    for (int b = 0; b < 2; ++b) {
        if (!m_brush[b])
            continue;
        const QColor c = brushColor(Brush(b));
        QColor edge = c;
        edge.setAlpha(255);
        const QRect br = QRect(QPoint(xAt(m_brush[b]->startMs), plot.top()), QPoint(xAt(m_brush[b]->endMs), plot.bottom()))
                             .intersected(plot);
        p.fillRect(br, c);
        p.setPen(QPen(edge, 2));
        p.drawLine(br.topLeft(), br.bottomLeft());
        p.drawLine(br.topRight(), br.bottomRight());
        if (const auto e = rangeEstimate(Brush(b)); e && e->rateKnown()) {
            // The average per step, its band ± one standard error.
            const int y = yAt(e->rate, plot, scale);
            if (e->errorKnown()) {
                QColor band = edge;
                band.setAlpha(70);
                p.fillRect(QRect(QPoint(br.left(), yAt(e->rate + e->standardError, plot, scale)),
                                 QPoint(br.right(), yAt(e->rate - e->standardError, plot, scale))),
                           band);
            }
            p.setPen(QPen(edge, 2, Qt::DashLine));
            p.drawLine(br.left(), y, br.right(), y);
        }
    }
}

void TimelineWidget::paintRangeLabels(QPainter &p, int left)
{
    // In the line above the plot, from each brush's left edge on, never over another label nor over the data:
    // pushed left from the right edge when there is no room, and only the names when even that does not fit (the
    // summary line has the numbers).
    const QFontMetrics fm = fontMetrics();
    const int gap = 16, right = width() - kMargin;
    QList<int> which;
    for (int b = 0; b < 2; ++b)
        if (m_brush[b])
            which << b;
    for (bool full : {true, false}) {
        QStringList labels;
        QList<int> x, w;
        for (int b : which) {
            const QString text = full ? rangeText(Brush(b)) : QString();
            labels << (text.isEmpty() ? (b == Baseline ? tr("baseline") : tr("comparison")) : text);
            w << fm.horizontalAdvance(labels.back());
            x << std::max(x.isEmpty() ? left : x.back() + w[w.size() - 2] + gap, xAt(m_brush[b]->startMs));
        }
        for (int i = int(x.size()) - 1; i >= 0; --i)
            x[i] = std::min(x[i], i + 1 < x.size() ? x[i + 1] - gap - w[i] : right - w[i]);
        if (full && !x.isEmpty() && x.front() < left)
            continue;   // no room for the numbers
        for (int i = 0; i < x.size(); ++i) {
            QColor edge = brushColor(Brush(which[i]));
            edge.setAlpha(255);
            p.setPen(dark() ? edge.lighter(130) : edge.darker(140));
            p.drawText(QRect(std::max(x[i], left), kMargin, w[i], fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                       labels[i]);
        }
        return;
    }
}

void TimelineWidget::paintReadout(QPainter &p, const QRect &plot)
{
    if (m_hoverStep < 0 || m_dragging >= 0)
        return;
    const TimeRange &s = m_timeline.steps[size_t(m_hoverStep)];
    QColor column = palette().color(QPalette::Text);
    column.setAlpha(28);
    p.fillRect(QRect(QPoint(xAt(s.startMs), plot.top()), QPoint(xAt(s.endMs) - 1, plot.bottom())).intersected(plot),
               column);
    const QStringList lines = readoutText(m_hoverStep).split(QLatin1Char('\n'));
    const QFontMetrics fm = fontMetrics();
    const int maxLines = std::max(2, (height() - 8) / fm.height());
    const int shown = std::min(int(lines.size()), maxLines);
    int w = 0;
    for (int i = 0; i < shown; ++i)
        w = std::max(w, fm.horizontalAdvance(lines[i]));
    w += kSwatch + 16;
    const int h = shown * fm.height() + 8;
    int x = m_hoverX + 14;
    if (x + w > width() - 2)
        x = std::max(2, m_hoverX - 14 - w);
    const QRect box(x, std::max(2, plot.top() + 4), w, std::min(h, height() - 4));
    QColor back = palette().color(QPalette::Base);
    back.setAlpha(235);
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(back);
    p.drawRoundedRect(box, 3, 3);
    p.setPen(palette().color(QPalette::Text));
    for (int i = 0; i < shown; ++i) {
        const QRect line(box.left() + 6 + kSwatch + 4, box.top() + 4 + i * fm.height(), w - kSwatch - 12, fm.height());
        const int series = i - 1;   // line 0 is the time
        if (series >= 0 && size_t(series) < m_timeline.series.size())
            p.fillRect(QRect(box.left() + 6, line.top() + (fm.height() - kSwatch) / 2, kSwatch, kSwatch),
                       seriesColor(series));
        p.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, i == shown - 1 && shown < lines.size() ? tr("…") : lines[i]);
    }
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const QRect plot = plotRect();
    const QFontMetrics fm = fontMetrics();
    const QColor text = palette().color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(dark() ? 45 : 30);
    if (m_window.lengthMs() <= 0 || m_timeline.steps.empty()) {
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(plot);
        p.setPen(palette().placeholderText().color());
        p.drawText(plot, Qt::AlignCenter, m_window.lengthMs() > 0 ? tr("no points in this range")
                                                                  : tr("the timeline of the query shows here after Load"));
        return;   // no axis without a window: no 1970 times
    }
    const Scale scale = scaleFor(plot.height());

    // The value axis: its unit and step above it, grid lines at its ticks.
    p.setPen(text);
    const QString header = tr("%1 · steps of %2%3")
                               .arg(scale.unit, durationText(m_timeline.stepSeconds), m_stacked ? tr(" · stacked") : QString());
    p.drawText(QRect(kMargin, kMargin, width() - 2 * kMargin, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, header);
    paintRangeLabels(p, kMargin + fm.horizontalAdvance(header) + 16);
    for (const ValueTick &t : scale.axis.ticks) {
        const int y = yAt(t.value * scale.divisor, plot, scale);
        p.setPen(grid);
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(text);
        p.drawText(QRect(kMargin, y - fm.height() / 2, plot.left() - kMargin - 4, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, t.label);
    }
    // The time axis.
    for (const TimeTick &t : timeTicks(m_window.startMs, m_window.endMs, std::max(2, plot.width() / 80))) {
        const int x = xAt(t.ms);
        p.setPen(grid);
        p.drawLine(x, plot.top(), x, plot.bottom() + 3);
        p.setPen(text);
        const int w = fm.horizontalAdvance(t.label);
        p.drawText(QRect(std::clamp(x - w / 2, 0, std::max(0, width() - w)), plot.bottom() + 4, w, fm.height()),
                   Qt::AlignCenter, t.label);
    }

    p.save();
    p.setClipRect(plot);
    p.setRenderHint(QPainter::Antialiasing);
    paintSeries(p, plot, scale);
    p.setRenderHint(QPainter::Antialiasing, false);
    paintBrushes(p, plot, scale);
    p.restore();
    p.setPen(palette().color(QPalette::Mid));
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);

    // The legend under the time axis, wrapped to the width.
    const int legendTop = plot.bottom() + 4 + fm.height() + 4;
    for (const LegendItem &item : m_legend) {
        const QRect r = item.rect.translated(0, legendTop);
        p.fillRect(QRect(r.left(), r.top() + (fm.height() - kSwatch) / 2, kSwatch, kSwatch), seriesColor(item.series));
        p.setPen(text);
        p.drawText(QRect(r.left() + kSwatch + 4, r.top(), r.width() - kSwatch - 4, r.height()),
                   Qt::AlignLeft | Qt::AlignTop | item.flags, item.text);
    }
    if (m_legendHidden > 0) {
        p.setPen(palette().placeholderText().color());
        p.drawText(QRect(kMargin, legendTop + m_legendHeight - fm.height(), width() - 2 * kMargin, fm.height()),
                   Qt::AlignLeft, tr("and %1 more series (hover for their values)").arg(m_legendHidden));
    }
    paintReadout(p, plot);
}

TimeRange TimelineWidget::dragRange(qint64 a, qint64 b) const
{
    TimeRange r{std::min(a, b), std::max(a, b)};
    if (m_timeline.stepSeconds <= 0 || m_timeline.steps.empty())
        return r;
    // Whole steps: the range's observations are its steps, as a server round of it with this step would be.
    r = snapToSteps(r, m_timeline.stepSeconds);
    if (r.lengthMs() <= 0)
        r.endMs = r.startMs + m_timeline.stepMs();
    return r;
}

void TimelineWidget::mousePressEvent(QMouseEvent *event)
{
    if (m_window.lengthMs() <= 0)
        return;
    if (event->button() != Qt::LeftButton && event->button() != Qt::RightButton)
        return;
    const bool comparison = event->button() == Qt::RightButton || (event->modifiers() & Qt::ShiftModifier);
    m_dragging = comparison ? Comparison : Baseline;
    m_dragStartX = event->position().toPoint().x();
    m_dragStartMs = timeAt(m_dragStartX);
    m_brush[m_dragging] = dragRange(m_dragStartMs, m_dragStartMs);
    update();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent *event)
{
    const QPoint pos = event->position().toPoint();
    if (m_dragging >= 0) {
        m_brush[m_dragging] = dragRange(m_dragStartMs, timeAt(pos.x()));
        update();
        return;
    }
    const int step = plotRect().contains(pos) ? m_timeline.stepAt(timeAt(pos.x())) : -1;
    if (step != m_hoverStep || (step >= 0 && pos.x() != m_hoverX)) {
        m_hoverStep = step;
        m_hoverX = pos.x();
        update();
    }
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent *event)
{
    if (m_dragging < 0)
        return;
    mouseMoveEvent(event);
    const int which = m_dragging;
    m_dragging = -1;
    // A click without a drag clears that brush rather than choosing one step.
    if (std::abs(event->position().toPoint().x() - m_dragStartX) < 3) {
        m_brush[which].reset();
        update();
        Q_EMIT rangesChanged();
        return;
    }
    Q_EMIT brushed(which, *m_brush[which]);
    Q_EMIT rangesChanged();
}

void TimelineWidget::leaveEvent(QEvent *event)
{
    QWidget::leaveEvent(event);
    if (m_hoverStep >= 0) {
        m_hoverStep = -1;
        update();
    }
}

}   // namespace qflame::qryn
