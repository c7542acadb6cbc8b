#include "flame/FrameDetails.h"

#include "pprof/Units.h"

namespace qflame {

FrameDetails::FrameDetails(QWidget *parent) : QLabel(parent)
{
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setAlignment(Qt::AlignTop | Qt::AlignLeft);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setMinimumWidth(240);
    setMargin(6);
    showNode(nullptr, {}, -1);
}

void FrameDetails::showNode(const CallTree *tree, Viewport view, int64_t node)
{
    if (!tree || node < 0) {
        setText(tr("<i>Hover or select a frame to see its details.</i>"));
        return;
    }
    const CallTree &t = *tree;
    const NodeId n = NodeId(node);
    const FrameTable &frames = t.frames();
    const Frame &f = frames.frame(t.frame(n));
    const StringPool &s = frames.strings();
    const std::string &unit = t.sampleType().unit;
    auto esc = [](const std::string &text) { return QString::fromStdString(text).toHtmlEscaped(); };
    auto value = [&](int64_t v) {
        return tr("%1 <small>(%2 of view, %3 of profile; %4 %5)</small>")
            .arg(QString::fromStdString(formatValue(double(v), unit)),
                 QString::fromStdString(formatPercent(double(v), view.span())),
                 QString::fromStdString(formatPercent(double(v), double(t.total(CallTree::kRoot)))))
            .arg(v)
            .arg(esc(unit));
    };
    QString html = QStringLiteral("<p><b>%1</b></p><table cellspacing=3>").arg(esc(t.label(n)));
    auto row = [&](const QString &k, const QString &v) {
        html += QStringLiteral("<tr><td valign=top><i>%1</i></td><td>%2</td></tr>").arg(k, v);
    };
    row(tr("Total"), value(t.total(n)));
    row(tr("Self"), value(t.self(n)));
    // The evidence behind the numbers: a frame seen in 3 samples is an anecdote, whatever its total.
    row(tr("Samples"), tr("%1 <small>(%2 ending here, of %3 in the profile)</small>")
                           .arg(t.samples(n))
                           .arg(t.selfSamples(n))
                           .arg(t.samples(CallTree::kRoot)));
    const uint8_t kinds = t.callKinds(n);
    row(tr("Inlined"), kinds == CallTree::kInlined ? tr("yes")
                       : kinds == (CallTree::kInlined | CallTree::kCalled) ? tr("on some paths")
                                                                             : tr("no"));
    if (f.sourceFile)
        row(tr("File"), esc(s.str(f.sourceFile)) + (f.key.line ? QStringLiteral(":%1").arg(f.key.line) : QString()));
    if (f.key.address)
        row(tr("Address"), QStringLiteral("0x%1").arg(f.key.address, 0, 16));
    if (f.mappingFile)
        row(tr("Mapping"), esc(s.str(f.mappingFile)) +
                               (f.buildId ? tr("<br><small>build id %1</small>").arg(esc(s.str(f.buildId))) : QString()));
    if (f.systemName && f.systemName != f.key.name)
        row(tr("System name"), esc(s.str(f.systemName)));
    row(tr("Depth"), QString::number(t.depth(n)));
    row(tr("Sample type"), esc(t.sampleType().type + "/" + unit));
    html += QStringLiteral("</table>");
    setText(html);
}

}   // namespace qflame
