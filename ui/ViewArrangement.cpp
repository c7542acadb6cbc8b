#include "ViewArrangement.h"

#include "controls/FilterBar.h"
#include "document/DocumentPane.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QVBoxLayout>

namespace qflame {

std::optional<Arrangement> arrangementOf(DocumentPane *pane)
{
    SampleFilters f;
    if (auto *p = qobject_cast<ProfilePane *>(pane))
        f = p->filterBar()->filters();
    else if (auto *d = qobject_cast<DiffPane *>(pane))
        f = d->frames();
    else
        return std::nullopt;
    return Arrangement{f.tagRoot, f.tagLeaf, f.inverted};
}

void ArrangementHistory::apply(DocumentPane *pane, const Arrangement &a)
{
    if (auto *p = qobject_cast<ProfilePane *>(pane)) {
        SampleFilters f = p->filterBar()->filters();
        f.tagRoot = a.tagRoot;
        f.tagLeaf = a.tagLeaf;
        f.inverted = a.inverted;
        p->filterBar()->setFilters(f);   // the filter bar shows them and the pane builds its tree again
    } else if (auto *d = qobject_cast<DiffPane *>(pane)) {
        SampleFilters f;
        f.tagRoot = a.tagRoot;
        f.tagLeaf = a.tagLeaf;
        f.inverted = a.inverted;
        d->setFrames(f);
    }
}

bool ArrangementHistory::change(DocumentPane *pane, const Arrangement &to)
{
    const std::optional<Arrangement> now = arrangementOf(pane);
    if (!now)
        return false;
    if (*now == to)
        return true;
    if (!m_before.contains(pane))   // forget a closed tab's history
        connect(pane, &QObject::destroyed, this, [this, pane] { m_before.remove(pane); });
    m_before[pane].push_back(*now);
    apply(pane, to);
    return true;
}

bool ArrangementHistory::back(DocumentPane *pane)
{
    auto it = m_before.find(pane);
    if (it == m_before.end() || it->empty())
        return false;
    const Arrangement previous = it->back();
    it->pop_back();
    apply(pane, previous);
    return true;
}

GroupByLabelDialog::GroupByLabelDialog(const Arrangement &current, QWidget *parent)
    : QDialog(parent), m_current(current)
{
    setWindowTitle(tr("Group by Label"));
    m_keys = new QLineEdit(QString::fromStdString(!current.tagLeaf.empty() ? current.tagLeaf : current.tagRoot));
    m_keys->setPlaceholderText(tr("label keys, comma-separated: version,pod"));
    m_root = new QRadioButton(tr("At the &root: the profile split by each value"));
    m_leaf = new QRadioButton(tr("At the &leaves: each value under the functions it ran in"));
    (current.tagLeaf.empty() ? m_root : m_leaf)->setChecked(true);
    auto *note = new QLabel(tr("As pprof's -tagroot and -tagleaf: each key's values become a frame (numbers with "
                               "their units; a sample without the label shows <unknown>). Empty keys remove "
                               "the grouping."));
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *form = new QFormLayout;
    form->addRow(tr("Label &keys:"), m_keys);
    form->addRow(QString(), m_root);
    form->addRow(QString(), m_leaf);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
}

Arrangement GroupByLabelDialog::arrangement() const
{
    Arrangement a = m_current;
    const std::string keys = m_keys->text().remove(QLatin1Char(' ')).toStdString();
    a.tagRoot = m_leaf->isChecked() ? std::string() : keys;
    a.tagLeaf = m_leaf->isChecked() ? keys : std::string();
    return a;
}

}   // namespace qflame
