#include "explorer/ProfileListView.h"

#include "pprof/Units.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace qflame::qryn {

namespace {

QString timeText(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

}   // namespace

void ProfileListModel::setEntries(std::vector<ProfileEntry> entries, const QString &unit)
{
    beginResetModel();
    m_entries = std::move(entries);
    m_unit = unit;
    endResetModel();
}

int ProfileListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ProfileListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProfileListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || size_t(index.row()) >= m_entries.size())
        return {};
    const ProfileEntry &e = m_entries[size_t(index.row())];
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Time: return timeText(e.timestampMs);
        case Labels: return labelsText(e.labels);
        case Total: return QString::fromStdString(formatValue(e.total, m_unit.toStdString()));
        }
    } else if (role == Qt::ToolTipRole && index.column() == Total) {
        return QStringLiteral("%1 %2").arg(QString::number(e.total, 'f', 0), m_unit);
    } else if (role == Qt::ToolTipRole && index.column() == Labels) {
        return labelsText(e.labels);
    } else if (role == Qt::TextAlignmentRole && index.column() == Total) {
        return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant ProfileListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time: return tr("Time");
    case Labels: return tr("Labels");
    case Total: return tr("Total");
    }
    return {};
}

ProfileListView::ProfileListView(QWidget *parent) : QWidget(parent), m_model(new ProfileListModel(this))
{
    m_caption = new QLabel;
    m_caption->setWordWrap(true);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->hide();
    m_table = new QTableView;
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(ProfileListModel::Labels, QHeaderView::Stretch);
    m_table->setWordWrap(false);
    // A few rows at least: the splitter would otherwise leave the list one row when it is first shown.
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              6 * m_table->verticalHeader()->defaultSectionSize());
    m_open = new QPushButton(tr("Open"));
    m_open->setToolTip(tr("The selected row's flamegraph: the merge of its second under its labels"));
    m_compare = new QPushButton(tr("Compare"));
    m_compare->setToolTip(tr("Two selected rows compared, the earlier as the baseline"));
    m_reload = new QPushButton(tr("Reload"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_compare);
    buttons->addStretch(1);
    buttons->addWidget(m_reload);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_caption);
    layout->addWidget(m_status);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ProfileListView::updateButtons);
    connect(m_model, &QAbstractItemModel::modelReset, this, &ProfileListView::updateButtons);
    connect(m_table, &QAbstractItemView::doubleClicked, this, [this](const QModelIndex &i) {
        Q_EMIT openRequested(m_model->entries()[size_t(i.row())]);
    });
    connect(m_open, &QPushButton::clicked, this, [this] {
        const auto rows = selectedEntries();
        if (rows.size() == 1)
            Q_EMIT openRequested(rows[0]);
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const auto rows = selectedEntries();
        if (rows.size() == 2)
            Q_EMIT compareRequested(rows[0], rows[1]);
    });
    connect(m_reload, &QPushButton::clicked, this, &ProfileListView::reloadRequested);
    m_caption->setText(tr("Press Profiles to list the profiles of the range."));
    updateButtons();
}

void ProfileListView::setEntries(std::vector<ProfileEntry> entries, const QString &unit, const TimeRange &range)
{
    const size_t n = entries.size();
    m_model->setEntries(std::move(entries), unit);
    m_table->resizeColumnToContents(ProfileListModel::Time);
    m_table->resizeColumnToContents(ProfileListModel::Total);
    // What a row is, since the server cannot say it lists profiles (qryn/ProfileList.h).
    m_caption->setText(tr("%n row(s) between %1 and %2. A row is what the server holds for one series in one "
                          "second (SelectSeries at its finest step, 1 s; qryn lists no raw profiles): one profile "
                          "when the series sends one every few seconds, their sum if two share a second.",
                          nullptr, int(n))
                           .arg(timeText(range.startMs), timeText(range.endMs)));
    setStatus(QString());
}

void ProfileListView::setStatus(const QString &text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

QString ProfileListView::caption() const
{
    return m_caption->text();
}

std::vector<ProfileEntry> ProfileListView::selectedEntries() const
{
    QList<int> rows;
    for (const QModelIndex &i : m_table->selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());   // the table is in time order
    std::vector<ProfileEntry> out;
    for (int r : rows)
        out.push_back(m_model->entries()[size_t(r)]);
    return out;
}

void ProfileListView::selectRows(const QList<int> &rows)
{
    QItemSelection selection;
    for (int r : rows)
        selection.select(m_model->index(r, 0), m_model->index(r, ProfileListModel::ColumnCount - 1));
    m_table->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
}

void ProfileListView::updateButtons()
{
    const qsizetype n = m_table->selectionModel()->selectedRows().size();
    m_open->setEnabled(n == 1);
    m_compare->setEnabled(n == 2);
}

}   // namespace qflame::qryn
