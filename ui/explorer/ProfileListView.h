// The explorer's list of the individual profiles of a range (qryn/ProfileList.h): time, labels and total per row,
// the caption saying what a row is (the server lists no raw profiles), and Open (one row: its flamegraph in the
// explorer) and Compare (two rows: the earlier is the baseline).
#pragma once

#include "qryn/ProfileList.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <vector>

class QLabel;
class QPushButton;
class QTableView;

namespace qflame::qryn {

class ProfileListModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Time, Labels, Total, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;

    void setEntries(std::vector<ProfileEntry> entries, const QString &unit);
    const std::vector<ProfileEntry> &entries() const { return m_entries; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<ProfileEntry> m_entries;
    QString m_unit;
};

class ProfileListView : public QWidget {
    Q_OBJECT

public:
    explicit ProfileListView(QWidget *parent = nullptr);

    // The rows of `range`, in `unit` (the profile type's sample unit).
    void setEntries(std::vector<ProfileEntry> entries, const QString &unit, const TimeRange &range);
    // While the list is asked for, or when it failed: one line above the table (the old rows stay).
    void setStatus(const QString &text);

    ProfileListModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    QString caption() const;
    QPushButton *openButton() const { return m_open; }
    QPushButton *compareButton() const { return m_compare; }
    // The selected rows, in time order.
    std::vector<ProfileEntry> selectedEntries() const;
    void selectRows(const QList<int> &rows);

Q_SIGNALS:
    void openRequested(const ProfileEntry &entry);
    void compareRequested(const ProfileEntry &baseline, const ProfileEntry &comparison);
    void reloadRequested();

private:
    void updateButtons();

    ProfileListModel *m_model;
    QLabel *m_caption, *m_status;
    QTableView *m_table;
    QPushButton *m_open, *m_compare, *m_reload;
};

}   // namespace qflame::qryn
