#include "controls/FilterBar.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace qflame {

QString FilterBar::kindName(Kind k)
{
    static const char *names[] = {"focus", "ignore", "hide", "show", "tagfocus", "tagignore", "tagroot", "tagleaf"};
    return QString::fromLatin1(names[k]);
}

FilterBar::FilterBar(QWidget *parent) : QWidget(parent)
{
    m_kind = new QComboBox;
    for (int k = 0; k < KindCount; ++k)
        m_kind->addItem(kindName(Kind(k)), k);
    m_kind->setToolTip(tr("focus: keep samples through a matching frame; ignore: drop them; hide: remove matching "
                          "frames; show: keep only matching frames; tagfocus/tagignore: key=regex on labels; tagroot/tagleaf: "
                          "label keys (key1,key2) whose values become frames at the root or the leaves"));
    m_value = new QLineEdit;
    m_value->setPlaceholderText(tr("regex, or key=value for tags; Enter adds the filter"));
    m_recursion = new QCheckBox(tr("Collapse recursion"));
    m_inverted = new QCheckBox(tr("Bottom-up"));
    m_inverted->setToolTip(tr("The whole profile bottom-up: the functions samples end in as roots, their callers above"));
    m_chips = new QHBoxLayout;
    m_chips->setSpacing(4);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_kind);
    layout->addWidget(m_value, 2);
    layout->addWidget(m_recursion);
    layout->addWidget(m_inverted);
    layout->addLayout(m_chips, 3);
    connect(m_value, &QLineEdit::returnPressed, this, [this] {
        if (!m_value->text().isEmpty())
            setFilter(Kind(m_kind->currentData().toInt()), m_value->text());
        m_value->clear();
    });
    connect(m_recursion, &QCheckBox::toggled, this, [this](bool on) {
        m_filters.collapseRecursion = on;
        Q_EMIT filtersChanged();
    });
    connect(m_inverted, &QCheckBox::toggled, this, [this](bool on) {
        m_filters.inverted = on;
        Q_EMIT filtersChanged();
    });
}

void FilterBar::setInverted(bool on)
{
    m_inverted->setChecked(on);   // emits filtersChanged() when it changes
}

void FilterBar::setFilters(const SampleFilters &filters)
{
    m_filters = filters;
    const QSignalBlocker blockRecursion(m_recursion), blockInverted(m_inverted);
    m_recursion->setChecked(filters.collapseRecursion);
    m_inverted->setChecked(filters.inverted);
    rebuildChips();
    Q_EMIT filtersChanged();
}

std::string &FilterBar::slot(Kind kind)
{
    switch (kind) {
    case Focus: return m_filters.focus;
    case Ignore: return m_filters.ignore;
    case Hide: return m_filters.hide;
    case Show: return m_filters.show;
    case TagFocus: return m_filters.tagFocus;
    case TagRoot: return m_filters.tagRoot;
    case TagLeaf: return m_filters.tagLeaf;
    case TagIgnore: break;
    case KindCount: break;
    }
    return m_filters.tagIgnore;
}

void FilterBar::setFilter(Kind kind, const QString &value)
{
    slot(kind) = value.toStdString();
    rebuildChips();
    Q_EMIT filtersChanged();
}

void FilterBar::removeFilter(Kind kind)
{
    slot(kind).clear();
    rebuildChips();
    Q_EMIT filtersChanged();
}

void FilterBar::clearAll()
{
    m_filters = SampleFilters{};
    const QSignalBlocker block(m_recursion), blockInverted(m_inverted);
    m_recursion->setChecked(false);
    m_inverted->setChecked(false);
    rebuildChips();
    Q_EMIT filtersChanged();
}

QStringList FilterBar::activeTexts() const
{
    QStringList out;
    for (int k = 0; k < KindCount; ++k) {
        const std::string &v = const_cast<FilterBar *>(this)->slot(Kind(k));
        if (!v.empty())
            out << kindName(Kind(k)) + QStringLiteral(": ") + QString::fromStdString(v);
    }
    return out;
}

void FilterBar::rebuildChips()
{
    while (QLayoutItem *item = m_chips->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    for (int k = 0; k < KindCount; ++k) {
        const std::string &v = slot(Kind(k));
        if (v.empty())
            continue;
        auto *chip = new QPushButton(kindName(Kind(k)) + QStringLiteral(": ") + QString::fromStdString(v) +
                                     QStringLiteral("  ✕"));
        chip->setToolTip(k == TagRoot || k == TagLeaf ? tr("Remove these label frames") : tr("Remove this filter"));
        chip->setFlat(true);
        chip->setStyleSheet(QStringLiteral("QPushButton { background: palette(highlight); color: palette(highlighted-text);"
                                           " border-radius: 8px; padding: 1px 8px; }"));
        connect(chip, &QPushButton::clicked, this, [this, k] { removeFilter(Kind(k)); });
        m_chips->addWidget(chip);
    }
    m_chips->addStretch(1);
}

}   // namespace qflame
