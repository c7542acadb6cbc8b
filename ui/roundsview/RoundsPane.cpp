#include "roundsview/RoundsPane.h"

#include "controls/TableSizing.h"
#include "roundsview/RoundsChart.h"
#include "roundsview/RoundsModels.h"
#include "roundsview/RoundsSourceView.h"
#include "tree/FlatTable.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <string_view>

namespace qflame {

namespace {

// The rounds' files are read as the other tabs' are: names as View > Demangle and View > Collapse Template
// Arguments chose when they were read, under the window's size cap (`--max-size`).
ReadOptions paneReading()
{
    return DocumentPane::readOptions();
}

QStringList pathsOf(const std::vector<RoundFiles> &rounds)
{
    QStringList paths;
    for (const RoundFiles &r : rounds)
        for (const QString &p : r.paths)
            paths << p;
    return paths;
}

}   // namespace

namespace {

// The cums of a function across the rounds as a line, scaled to the cell (its own range, so that the shape shows).
class SparklineDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter *p, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyledItemDelegate::paint(p, option, index);
        const QVariantList cums = index.data(FunctionMatrixModel::kCumsRole).toList();
        if (cums.size() < 2)
            return;
        double low = cums.front().toDouble(), high = low;
        for (const QVariant &v : cums)
            low = std::min(low, v.toDouble()), high = std::max(high, v.toDouble());
        const QRectF r = QRectF(option.rect).adjusted(4, 3, -4, -3);
        QPainterPath path;
        for (int i = 0; i < cums.size(); ++i) {
            const double f = high > low ? (cums[i].toDouble() - low) / (high - low) : 0.5;
            const QPointF pt(r.left() + r.width() * i / (cums.size() - 1), r.bottom() - f * r.height());
            i == 0 ? path.moveTo(pt) : path.lineTo(pt);
        }
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        p->setPen(QPen(option.palette.color(option.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                                   : QPalette::Text),
                       1.2));
        p->drawPath(path);
        p->restore();
    }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        return QStyledItemDelegate::sizeHint(option, index).expandedTo(QSize(70, 0));
    }
};

}   // namespace

RoundsPane::RoundsPane(QWidget *parent) : DocumentPane(parent)
{
    auto *noiseLabel = new QLabel(tr("Noise:"));
    m_noise = new QDoubleSpinBox;
    m_noise->setRange(0, 10);
    m_noise->setSingleStep(0.5);
    m_noise->setValue(2);
    m_noise->setSuffix(tr(" SE"));
    m_noise->setToolTip(tr("A change is real past this many standard errors (0 turns the test off)"));
    m_add = new QPushButton(tr("Add Round..."));
    m_remove = new QPushButton(tr("Remove"));
    m_up = new QPushButton(tr("Move Up"));
    m_down = new QPushButton(tr("Move Down"));
    m_compare = new QPushButton(tr("Compare Two"));
    m_compare->setToolTip(tr("Open the two selected rounds in a comparison tab (the first as the baseline)"));
    header()->addWidget(noiseLabel);
    header()->addWidget(m_noise);
    for (QPushButton *b : {m_add, m_remove, m_up, m_down, m_compare})
        header()->addWidget(b);

    m_roundsModel = new RoundsTableModel(this);
    m_roundsTable = new QTableView;
    m_roundsTable->setModel(m_roundsModel);
    m_roundsTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_roundsTable->verticalHeader()->hide();
    m_roundsTable->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_chart = new RoundsChart;

    m_functionModel = new FunctionMatrixModel(this);
    m_functionProxy = new QSortFilterProxyModel(this);
    m_functionProxy->setSourceModel(m_functionModel);
    m_functionProxy->setSortRole(FunctionMatrixModel::kSortRole);
    m_functionProxy->setFilterKeyColumn(0);
    m_functions = new QTableView;
    m_functions->setModel(m_functionProxy);
    m_functions->setSortingEnabled(true);
    m_functions->setWordWrap(false);
    m_functions->setItemDelegateForColumn(1, new SparklineDelegate(m_functions));
    m_functions->verticalHeader()->hide();
    m_functions->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_filter = new QLineEdit;
    m_filter->setPlaceholderText(tr("Filter functions (regular expression)"));
    m_filter->setClearButtonEnabled(true);
    m_notes = new QLabel;
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *top = new QSplitter(Qt::Horizontal);
    top->addWidget(m_roundsTable);
    top->addWidget(m_chart);
    top->setStretchFactor(0, 1);
    top->setStretchFactor(1, 1);
    top->setSizes({640, 560});
    auto *matrix = new QWidget;
    auto *matrixLayout = new QVBoxLayout(matrix);
    matrixLayout->setContentsMargins(0, 0, 0, 0);
    matrixLayout->addWidget(m_filter);
    matrixLayout->addWidget(m_functions);
    m_source = new RoundsSourceView;
    m_bottomTabs = new QTabWidget;
    m_bottomTabs->addTab(matrix, tr("Functions"));
    m_bottomTabs->addTab(m_source, tr("Source"));
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(m_bottomTabs);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(header());
    layout->addWidget(m_notes);
    layout->addWidget(split, 1);

    connect(m_add, &QPushButton::clicked, this, &RoundsPane::askForRound);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_roundsTable->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            removeRound(rows.front().row());
    });
    auto move = [this](int by) {
        const QModelIndexList rows = m_roundsTable->selectionModel()->selectedRows();
        if (!rows.isEmpty())
            moveRound(rows.front().row(), rows.front().row() + by);
    };
    connect(m_up, &QPushButton::clicked, this, [move] { move(-1); });
    connect(m_down, &QPushButton::clicked, this, [move] { move(1); });
    connect(m_compare, &QPushButton::clicked, this, &RoundsPane::compareSelected);
    connect(m_functions, &QTableView::doubleClicked, this, [this](const QModelIndex &index) {
        showSource(m_functionProxy->mapToSource(index).row());
    });
    connect(m_functions->horizontalHeader(), &QHeaderView::sectionClicked, this, [this] { m_userSorted = true; });
    connect(m_roundsModel, &RoundsTableModel::renameRequested, this, &RoundsPane::renameRound);
    connect(m_roundsTable->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RoundsPane::updateButtons);
    connect(m_noise, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_updatingControls)
            rebuild();
    });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        const QRegularExpression re(text, QRegularExpression::CaseInsensitiveOption);
        m_filter->setStyleSheet(re.isValid() ? QString() : QStringLiteral("color: #c00"));
        if (re.isValid())
            m_functionProxy->setFilterRegularExpression(re);
    });
    m_notes->setText(tr("No rounds: add one (the first is the baseline)."));
    updateButtons();
}

QString RoundsPane::title() const
{
    QStringList names;
    for (const RoundFiles &r : m_files)
        names << QString::fromStdString(r.name);
    return names.isEmpty() ? tr("Rounds") : tr("Rounds: %1").arg(names.join(QStringLiteral(" · ")));
}

void RoundsPane::setColorBlindSafe(bool on)
{
    m_roundsModel->setColorBlindSafe(on);
    m_functionModel->setColorBlindSafe(on);
    m_chart->setColorBlindSafe(on);
    m_source->setColorBlindSafe(on);
}

void RoundsPane::compareSelected()
{
    QModelIndexList rows = m_roundsTable->selectionModel()->selectedRows();
    if (rows.size() != 2 || !m_loaded.result)
        return;
    std::sort(rows.begin(), rows.end());
    const size_t a = size_t(rows[0].row()), b = size_t(rows[1].row());
    const auto noise = std::make_shared<MeasuredNoise>(measuredNoiseBetween(*m_loaded.result, a, b));
    if (m_server) {
        // A server's rounds have no files: their trees (each window's merge, with the window's duration) are
        // compared as they are, without asking the server again.
        Q_EMIT compareTreesRequested(QString::fromStdString(m_loaded.inputs[a].name), m_loaded.inputs[a].profiles,
                                     QString::fromStdString(m_loaded.inputs[b].name), m_loaded.inputs[b].profiles,
                                     noise);
        return;
    }
    auto paths = [this](size_t r) {
        QStringList out;
        for (const QString &p : m_files[r].paths)
            out << p;
        return out;
    };
    Q_EMIT compareRequested(paths(a), paths(b), noise);
}

void RoundsPane::showSource(int function)
{
    const auto result = m_loaded.result;
    if (!result || function < 0 || size_t(function) >= result->functions.size())
        return;
    m_bottomTabs->setCurrentWidget(m_source);
    if (result->granularity != Granularity::Functions) {
        m_source->showMessage(tr("Source lines are listed per function: choose the functions granularity."));
        return;
    }
    // The matrix names functions as `qflame top` does, with pprof's inline marks; the source knows bare names.
    std::string name = result->functions[size_t(function)].name;
    for (const FlatRow::Inline kind : {FlatRow::Inline::Always, FlatRow::Inline::Partly}) {
        const std::string_view mark = FlatTable::inlineSuffix(kind);
        if (name.size() > mark.size() && std::string_view(name).substr(name.size() - mark.size()) == mark)
            name.resize(name.size() - mark.size());
    }
    m_source->showFunction(m_loaded.inputs, result->sampleType, name, result->noiseK, m_loaded.options.durationNanos);
}

RoundsOptions RoundsPane::currentOptions() const
{
    RoundsOptions o = m_loaded.options;
    // By name and unit, not by index: the box lists the first round's first profile's types, and a reordering
    // makes another profile first.
    const int type = sampleTypeBox()->currentIndex();
    // A server's observations are totals of the query's type: another type would not match them.
    if (type >= 0 && !m_loaded.inputs.empty() && !m_server) {
        const Profile &first = *m_loaded.inputs.front().profiles.front();
        if (size_t(type) < first.sampleTypes.size())
            o.sample = first.typeName(size_t(type)) + "/" + first.unitName(size_t(type));
    }
    o.granularity = Granularity(granularityBox()->currentData().toInt());
    o.noiseK = m_noise->value();
    return o;
}

void RoundsPane::open(std::vector<RoundFiles> rounds, RoundsOptions options)
{
    m_updatingControls = true;
    m_noise->setValue(options.noiseK);
    granularityBox()->setCurrentIndex(granularityBox()->findData(int(options.granularity)));
    m_updatingControls = false;
    // URLs are fetched first, with a CPU profile's countdown and Cancel, as in the other tabs.
    fetchThen(pathsOf(rounds), false, [this, rounds, options] {
        run<LoadedRounds>(loadRoundsAsync(rounds, options, paneReading()),
                          [this, rounds](LoadedRounds loaded) { showLoaded(std::move(loaded), rounds); });
    });
}

void RoundsPane::openServer(const qryn::ConnectionSettings &settings, const qryn::ServerRoundsQuery &query,
                            RoundsOptions options)
{
    m_server = true;
    m_updatingControls = true;
    m_noise->setValue(options.noiseK);
    m_updatingControls = false;
    sampleTypeBox()->setEnabled(false);
    granularityBox()->setEnabled(false);   // the server's flamegraph has function names only
    std::vector<RoundFiles> names;
    for (const qryn::ServerRoundSpec &r : query.rounds)
        names.push_back({r.name, {}});
    // The client is made on the pool thread and its requests run on that thread's event loop, so the GUI thread
    // only paints; a failure is a line naming the round, as for files. Cancel (or closing the tab) aborts the
    // requests in flight at once, freeing the thread.
    run<LoadedRounds>(qryn::fetchServerRoundsAsync(settings, query, options),
                      [this, names](LoadedRounds loaded) { showLoaded(std::move(loaded), names); });
}

void RoundsPane::rebuild()
{
    compareAgain(m_loaded.inputs, m_files);
}

void RoundsPane::compareAgain(std::vector<RoundInput> inputs, std::vector<RoundFiles> files)
{
    run<LoadedRounds>(compareRoundsAsync(std::move(inputs), currentOptions()),
                      [this, files](LoadedRounds loaded) { showLoaded(std::move(loaded), files); });
}

void RoundsPane::showLoaded(LoadedRounds loaded, std::vector<RoundFiles> files)
{
    m_loaded = std::move(loaded);
    m_files = std::move(files);
    const auto result = m_loaded.result;
    if (!m_loaded.inputs.empty()) {
        const Profile &first = *m_loaded.inputs.front().profiles.front();
        const int type = m_loaded.options.sample.empty() ? first.effectiveDefaultType()
                                                         : first.findSampleType(m_loaded.options.sample);
        fillSampleTypes(first, type, m_loaded.options.granularity);
    }
    m_roundsModel->setResult(result);
    m_functionModel->setResult(result);
    m_chart->setResult(result);
    sizeColumnsToText(m_roundsTable);
    // The name takes what the rounds leave (sections exist only once the model has columns).
    // Unsorted until a header is clicked: the model's order, the most changed function first.
    if (!m_userSorted) {
        m_functions->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
        m_functionProxy->sort(-1);
    }
    if (m_functionModel->columnCount() > 0) {
        m_functions->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
        for (int c = 1; c < m_functionModel->columnCount(); ++c)
            m_functions->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    }
    QStringList notes;
    if (result && !result->rounds.empty())
        notes << tr("%1/%2. Verdicts: %3.")
                     .arg(QString::fromStdString(result->sampleType.type), QString::fromStdString(result->sampleType.unit),
                          QString::fromStdString(result->noiseRule()));
    else
        notes << tr("No rounds: add one (the first is the baseline).");
    if (result)
        for (const std::string &n : result->notes)
            notes << QString::fromStdString(n);
    m_notes->setText(notes.join(QLatin1Char('\n')));
    updateButtons();
}

void RoundsPane::askForRound()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Profiles of the Round"), QString(),
        tr("Profiles (*.pb.gz *.pprof *.prof *.pb *.pb.zst *.gz *.folded *.txt *.json);;All files (*)"));
    if (paths.isEmpty())
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Round Name"), tr("Name of the round:"), QLineEdit::Normal,
                                               m_files.empty() ? tr("base") : tr("round %1").arg(m_files.size()), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    RoundFiles round{name.trimmed().toStdString(), {}};
    for (const QString &p : paths)
        round.paths.push_back(p);
    addRound(std::move(round));
}

void RoundsPane::addRound(RoundFiles round)
{
    // Every round is read again with the new one: what fails to read is reported, naming the round and the file,
    // and the rounds shown stay as they were.
    std::vector<RoundFiles> files = m_files;
    files.push_back(std::move(round));
    const RoundsOptions options = currentOptions();
    // The rounds' URLs were fetched when they came: their bytes are read again, the server not asked.
    fetchThen(pathsOf(files), true, [this, files, options] {
        run<LoadedRounds>(loadRoundsAsync(files, m_files.empty() ? RoundsOptions{} : options, paneReading()),
                          [this, files](LoadedRounds loaded) { showLoaded(std::move(loaded), files); });
    });
}

void RoundsPane::removeRound(int index)
{
    if (index < 0 || size_t(index) >= m_files.size())
        return;
    std::vector<RoundInput> inputs = m_loaded.inputs;
    std::vector<RoundFiles> files = m_files;
    inputs.erase(inputs.begin() + index);
    files.erase(files.begin() + index);
    compareAgain(std::move(inputs), std::move(files));
}

void RoundsPane::moveRound(int index, int to)
{
    if (index < 0 || to < 0 || size_t(index) >= m_files.size() || size_t(to) >= m_files.size() || index == to)
        return;
    std::vector<RoundInput> inputs = m_loaded.inputs;
    std::vector<RoundFiles> files = m_files;
    std::swap(inputs[size_t(index)], inputs[size_t(to)]);
    std::swap(files[size_t(index)], files[size_t(to)]);
    compareAgain(std::move(inputs), std::move(files));
}

void RoundsPane::renameRound(int index, const QString &name)
{
    if (index < 0 || size_t(index) >= m_files.size() || name.trimmed().isEmpty())
        return;
    std::vector<RoundInput> inputs = m_loaded.inputs;
    std::vector<RoundFiles> files = m_files;
    inputs[size_t(index)].name = files[size_t(index)].name = name.trimmed().toStdString();
    compareAgain(std::move(inputs), std::move(files));
}

void RoundsPane::updateButtons()
{
    const QModelIndexList rows = m_roundsTable->selectionModel()->selectedRows();
    const int row = rows.size() == 1 ? rows.front().row() : -1;
    m_remove->setEnabled(row >= 0);
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && size_t(row) + 1 < m_files.size());
    m_compare->setEnabled(rows.size() == 2);
    m_add->setEnabled(!m_server);
}

}   // namespace qflame
