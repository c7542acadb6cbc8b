#include "flame/FlameSource.h"

#include "pprof/Units.h"

#include <QCoreApplication>

namespace qflame {

CallTreeSource::CallTreeSource(std::shared_ptr<const CallTree> tree, std::shared_ptr<const FlameLayout> layout)
    : m_tree(std::move(tree)), m_layout(layout ? std::move(layout) : std::make_shared<const FlameLayout>(*m_tree))
{
    Q_ASSERT(m_layout->size() == m_tree->size());
}

QColor CallTreeSource::color(NodeId n, const PaintOptions &options) const
{
    const CallTree &t = *m_tree;
    if (n == CallTree::kRoot)
        return options.palette.color(QPalette::Mid);
    if (options.scheme != ColorScheme::SelfHeat) {
        const int key = int(options.scheme) * 2 + int(options.colorBlindSafe);
        if (key != m_frameColorsKey) {
            m_frameColors.assign(t.frames().size(), 0);
            m_frameColorsKey = key;
        }
        QRgb &cached = m_frameColors[t.frame(n)];
        if (cached == 0)
            cached = uncachedColor(n, options).rgba() | 0xff000000u;
        return QColor::fromRgba(cached);
    }
    return uncachedColor(n, options);
}

QColor CallTreeSource::uncachedColor(NodeId n, const PaintOptions &options) const
{
    const CallTree &t = *m_tree;
    switch (options.scheme) {
    case ColorScheme::Package:
        return colorForKey(packageOf(QString::fromUtf8(t.label(n))), options.colorBlindSafe);
    case ColorScheme::Mapping: {
        const std::string &m = t.frames().strings().str(t.frames().frame(t.frame(n)).mappingFile);
        const size_t slash = m.rfind('/');
        return colorForKey(QString::fromStdString(slash == std::string::npos ? m : m.substr(slash + 1)),
                           options.colorBlindSafe, true);
    }
    case ColorScheme::SelfHeat:
        return heatColor(t.total(n) ? double(t.self(n)) / double(t.total(n)) : 0.0, options.colorBlindSafe);
    }
    return Qt::gray;
}

QString CallTreeSource::describe(NodeId n, Viewport view) const
{
    const CallTree &t = *m_tree;
    const std::string &unit = t.sampleType().unit;
    const double total = double(t.total(CallTree::kRoot));
    auto fmt = [&](int64_t v) { return QString::fromStdString(formatValue(double(v), unit)); };
    auto pct = [&](int64_t v, double whole) { return QString::fromStdString(formatPercent(double(v), whole)); };
    QString name = QString::fromStdString(t.label(n));
    if (t.isInlined(n))
        name += QCoreApplication::translate("FlameGraphWidget", " (inlined)");
    return QCoreApplication::translate("FlameGraphWidget",
                                       "%1\nTotal: %2 (%3 of view, %4 of profile)\nSelf: %5 (%6 of view, %7 of profile)\n"
                                       "Samples: %8 (%9 ending here)")
        .arg(name, fmt(t.total(n)), pct(t.total(n), view.span()), pct(t.total(n), total), fmt(t.self(n)),
             pct(t.self(n), view.span()), pct(t.self(n), total))
        .arg(t.samples(n))
        .arg(t.selfSamples(n));
}

}   // namespace qflame
