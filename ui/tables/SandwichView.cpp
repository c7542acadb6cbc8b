#include "tables/SandwichView.h"

#include "flame/FlameView.h"
#include "pprof/Units.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace qflame {

SandwichView::SandwichView(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(tr("Double-click a function in the table (or use a frame's context menu) to see its callers "
                            "and callees."));
    m_title->setWordWrap(true);
    m_callers = new FlameView;
    m_callees = new FlameView;
    // Callers grow upwards from the function at the bottom; callees hang down from it at the top.
    m_callers->graph()->setOrientation(FlameGraphWidget::Orientation::Flame);
    m_callees->graph()->setOrientation(FlameGraphWidget::Orientation::Icicle);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_callers);
    split->addWidget(m_callees);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(split, 1);
}

void SandwichView::showFunction(const CallTree &tree, FrameId frame)
{
    m_sandwich = SandwichBuilder::build(tree, frame);
    const std::string &unit = tree.sampleType().unit;
    m_title->setText(tr("<b>%1</b> — %2 (%3 of the profile). Callers above, callees below.")
                         .arg(QString::fromStdString(tree.frames().label(frame)).toHtmlEscaped(),
                              QString::fromStdString(formatValue(double(m_sandwich.total()), unit)),
                              QString::fromStdString(formatPercent(double(m_sandwich.total()),
                                                                   double(tree.total(CallTree::kRoot))))));
    m_callers->setTree(m_sandwich.callers);
    m_callees->setTree(m_sandwich.callees);
}

void SandwichView::clear()
{
    m_sandwich = Sandwich{};
    m_callers->setTree(nullptr);
    m_callees->setTree(nullptr);
}

QString SandwichView::titleText() const
{
    return m_title->text();
}

}   // namespace qflame
