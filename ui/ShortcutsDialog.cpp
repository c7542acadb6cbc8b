#include "ShortcutsDialog.h"

#include "compare/DiffView.h"
#include "controls/SearchBar.h"
#include "flame/FlameGraphWidget.h"
#include "time/FlameChartView.h"
#include "time/TimeChart.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace qflame {

namespace {

QString plainText(QString text)
{
    text.remove(QLatin1Char('&'));   // mnemonics
    if (text.endsWith(QLatin1String("...")))
        text.chop(3);
    return text;
}

void collectMenu(const QMenu *menu, const QString &area, QList<ShortcutEntry> &out)
{
    for (QAction *a : menu->actions()) {
        if (a->isSeparator())
            continue;
        if (a->menu()) {
            collectMenu(a->menu(), area + QStringLiteral(" > ") + plainText(a->text()), out);
            continue;
        }
        QStringList keys;
        for (const QKeySequence &k : a->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        if (!keys.isEmpty())
            out.push_back({area, keys.join(QStringLiteral(", ")), plainText(a->text())});
    }
}

}   // namespace

QList<ShortcutEntry> collectShortcuts(const QMenuBar *bar)
{
    QList<ShortcutEntry> out;
    for (QAction *a : bar->actions())
        if (a->menu())
            collectMenu(a->menu(), plainText(a->text()), out);
    const std::pair<QString, QList<QPair<QString, QString>>> views[] = {
        {ShortcutsDialog::tr("Flame graph"), FlameGraphWidget::keyBindings()},
        {ShortcutsDialog::tr("Search field"), SearchBar::keyBindings()},
        {ShortcutsDialog::tr("Comparison"), DiffView::keyBindings()},
        {ShortcutsDialog::tr("Time tab"), TimeChart::keyBindings() + FlameChartView::keyBindings()},
    };
    for (const auto &[area, bindings] : views)
        for (const auto &[keys, what] : bindings)
            out.push_back({area, keys, what});
    return out;
}

ShortcutsDialog::ShortcutsDialog(const QMenuBar *bar, QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    const QList<ShortcutEntry> entries = collectShortcuts(bar);
    m_table = new QTableWidget(int(entries.size()), 3);
    m_table->setHorizontalHeaderLabels({tr("Where"), tr("Keys"), tr("What")});
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setWordWrap(false);
    for (int i = 0; i < entries.size(); ++i) {
        m_table->setItem(i, 0, new QTableWidgetItem(entries[i].area));
        m_table->setItem(i, 1, new QTableWidgetItem(entries[i].keys));
        m_table->setItem(i, 2, new QTableWidgetItem(entries[i].what));
    }
    m_table->resizeColumnsToContents();
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table);
    layout->addWidget(buttons);
    resize(760, 560);
}

}   // namespace qflame
