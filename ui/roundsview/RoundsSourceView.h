// The rounds tab's source pane: one function's lines with each round's cum beside the text, each round's cell
// coloured by its verdict against the baseline (the rounds' noise rule, per line: model/source/RoundsSource). It
// lists off the GUI thread; what it shows comes whole from the model.
#pragma once

#include "controls/LatestJob.h"
#include "source/RoundsSource.h"

#include <QAbstractTableModel>
#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QTableView;

namespace qflame {

class RoundsSourceModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // Column 0 the line number, then one per round, then the line's text.
    using QAbstractTableModel::QAbstractTableModel;
    void setFile(std::shared_ptr<const RoundsSourceListing> listing, int file);
    void setColorBlindSafe(bool on);
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    int hottestRow() const;   // the line with the largest cum in any round; -1: none

private:
    const RoundsListedFile *file() const;
    std::shared_ptr<const RoundsSourceListing> m_listing;
    int m_file = -1;
    double m_maxChange = 0;   // the largest |cum_j - cum_1| of the file's lines, for the colours' strength
    bool m_colorBlind = false;
};

class RoundsSourceView : public QWidget {
    Q_OBJECT

public:
    explicit RoundsSourceView(QWidget *parent = nullptr);
    // Lists `function` in every round off the GUI thread (a newer request replaces a running one).
    void showFunction(std::vector<RoundInput> rounds, SampleTypeInfo type, std::string function, double noiseK,
                      int64_t durationNanos);
    // A line instead of a listing (a running listing is dropped).
    void showMessage(const QString &message);
    void setColorBlindSafe(bool on);
    bool isListing() const { return m_job.running(); }

    const RoundsSourceListing *listing() const { return m_listing.get(); }
    QTableView *table() const { return m_table; }
    QString titleText() const;

Q_SIGNALS:
    void listingReady();

private:
    void setListing(std::shared_ptr<const RoundsSourceListing> listing);
    void setMessage(const QString &message);
    void showFile(int index);

    std::shared_ptr<const RoundsSourceListing> m_listing;
    RoundsSourceModel *m_model;
    QTableView *m_table;
    QLabel *m_title;
    QComboBox *m_files;
    LatestJob<RoundsSource> m_job{this};
};

}   // namespace qflame
