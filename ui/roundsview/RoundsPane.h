// The rounds tab: rounds of profiles compared at once (model/rounds). The rounds table and a chart of each
// round's rate with its error bars beside its observations; the function matrix (functions × rounds, coloured by
// the change and its verdict, a sparkline per row, sortable by any round's change, a regex filter). Rounds are
// added, removed, renamed and reordered in the tab; the first is the baseline. Two rounds picked open a
// comparison tab.
#pragma once

#include "LoadJob.h"
#include "document/DocumentPane.h"
#include "qryn/ServerRounds.h"

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;

namespace qflame {

class FunctionMatrixModel;
class RoundsChart;
class RoundsSourceView;
class RoundsTableModel;

class RoundsPane : public DocumentPane {
    Q_OBJECT

public:
    explicit RoundsPane(QWidget *parent = nullptr);
    // Reads and compares these rounds (replacing any shown).
    void open(std::vector<RoundFiles> rounds, RoundsOptions options = {});
    // Asks a server for these rounds (windows, one observation per step: qryn/ServerRounds.h) on a pool thread and
    // compares them. Their sample type is the query's; they are removed, renamed and reordered, never added to
    // (they have no files); Compare Two compares their trees (compareTreesRequested).
    void openServer(const qryn::ConnectionSettings &settings, const qryn::ServerRoundsQuery &query,
                    RoundsOptions options = {});
    bool fromServer() const { return m_server; }
    QString title() const override;

    const LoadedRounds &loaded() const { return m_loaded; }
    const std::vector<RoundFiles> &rounds() const { return m_files; }
    QTableView *roundsTable() const { return m_roundsTable; }
    QTableView *functionTable() const { return m_functions; }
    QLineEdit *functionFilter() const { return m_filter; }
    RoundsChart *chart() const { return m_chart; }
    QLabel *notes() const { return m_notes; }
    QPushButton *compareButton() const { return m_compare; }
    RoundsSourceView *sourceView() const { return m_source; }
    QTabWidget *bottomTabs() const { return m_bottomTabs; }
    // Lists the lines of the function matrix's function `function` (a row of the model) in every round.
    void showSource(int function);
    // What Compare Two does with the two rounds selected in the rounds table.
    void compareSelected();
    void setColorBlindSafe(bool on);

    // The editing the buttons and the table do, for tests and the menu alike.
    void addRound(RoundFiles round);
    void removeRound(int index);
    void moveRound(int index, int to);
    void renameRound(int index, const QString &name);
    // Asks for a round's files and name, then adds it.
    void askForRound();

Q_SIGNALS:
    // Two rounds picked for a comparison tab: their files, the first as the baseline, and the noise their
    // observations measured (for the comparison under per-second normalisation).
    void compareRequested(const QStringList &before, const QStringList &after,
                          std::shared_ptr<const qflame::MeasuredNoise> noise);
    // The same for rounds without files (a server's windows): their trees, named by their rounds.
    void compareTreesRequested(const QString &beforeName,
                               const std::vector<std::shared_ptr<const qflame::Profile>> &before,
                               const QString &afterName,
                               const std::vector<std::shared_ptr<const qflame::Profile>> &after,
                               std::shared_ptr<const qflame::MeasuredNoise> noise);

protected:
    void rebuild() override;

private:
    RoundsOptions currentOptions() const;
    // Compares `inputs` (already read) and, once done, shows them with `files` as the rounds' files.
    void compareAgain(std::vector<RoundInput> inputs, std::vector<RoundFiles> files);
    void showLoaded(LoadedRounds loaded, std::vector<RoundFiles> files);
    void updateButtons();

    LoadedRounds m_loaded;
    std::vector<RoundFiles> m_files;   // the files of each round in m_loaded.inputs, in the same order
    RoundsTableModel *m_roundsModel;
    FunctionMatrixModel *m_functionModel;
    QSortFilterProxyModel *m_functionProxy;
    QTableView *m_roundsTable;
    QTableView *m_functions;
    QLineEdit *m_filter;
    RoundsChart *m_chart;
    RoundsSourceView *m_source;
    QTabWidget *m_bottomTabs;
    QLabel *m_notes;
    QDoubleSpinBox *m_noise;
    QPushButton *m_add, *m_remove, *m_up, *m_down, *m_compare;
    bool m_server = false;       // rounds of a server's windows (openServer)
    bool m_userSorted = false;   // the function matrix keeps the model's order until a header is clicked
};

}   // namespace qflame
