#include "asmview/AsmView.h"

#include "asmview/AsmDelegates.h"

#include "io/Regex.h"
#include "pprof/PprofLabels.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cstdlib>

namespace qflame {

using namespace asmview;

namespace {

enum Column { Flat, Cum, Address, Jumps, Text, ColumnCount };

std::vector<QString> readLines(const std::string &path)
{
    std::vector<QString> out;
    QFile f(QString::fromStdString(path));
    if (path.empty() || f.size() > (8 << 20) || !f.open(QIODevice::ReadOnly))
        return out;
    for (const QByteArray &line : f.readAll().split('\n'))
        out.push_back(QString::fromUtf8(line).trimmed());
    return out;
}

}   // namespace

namespace {

Regex exactName(const std::string &function)
{
    // The name whole, wherever pprof's printable name (address, name, file:line) or a symbol holds it.
    return Regex("(?:^|\\s)" + regexEscaped(function) + "(?:\\s|$)");
}

BinarySearch envSearch()
{
    BinarySearch search;
    if (const char *env = std::getenv("PPROF_BINARY_PATH"))
        for (const QString &d : QString::fromLocal8Bit(env).split(QLatin1Char(':'), Qt::SkipEmptyParts))
            search.folders.push_back(d.toStdString());
    return search;
}

}   // namespace

AsmResult disassembleFunction(const std::vector<std::shared_ptr<const Profile>> &profiles, size_t type,
                              const std::string &function)
{
    AsmResult out;
    try {
        auto d = std::make_shared<Disassembly>(disassembleProfiles(profiles, type, exactName(function), envSearch(),
                                                                   function));
        for (const DisasmRoutine &r : d->routines)
            for (const DisasmInstruction &in : r.instructions)
                if (!out.sources.count(in.file))
                    out.sources[in.file] = readLines(in.file);
        out.disassembly = std::move(d);
    } catch (const std::exception &e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

AsmResult disassembleFunctionDiff(const std::vector<std::shared_ptr<const Profile>> &before,
                                  const std::vector<std::shared_ptr<const Profile>> &after, size_t type,
                                  const std::string &function, double noiseK)
{
    AsmResult out;
    try {
        const Profile &first = *before.front();
        const Disassembly b = disassembleProfiles(before, type, exactName(function), envSearch(), function);
        size_t afterType = 0;
        for (size_t t = 0; t < after.front()->sampleTypes.size(); ++t)
            if (after.front()->typeName(t) == first.typeName(type) && after.front()->unitName(t) == first.unitName(type))
                afterType = t;
        const Disassembly a = disassembleProfiles(after, afterType, exactName(function), envSearch(), function);
        auto diff = std::make_shared<DisasmDiff>(diffDisassembly(b, a, noiseK));
        try {   // the PGO panel's inlining changes (its sample type), marked on the calls
            markInliningChanges(*diff, computeInliningChanges(before, after));
        } catch (const std::exception &) {
        }
        out.diff = std::move(diff);
    } catch (const std::exception &e) {
        out.error = QString::fromUtf8(e.what());
    }
    return out;
}

AsmView::AsmView(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(tr("Show Assembly on a frame or a row to see its instructions"));
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true);
    m_tree = new QTreeWidget;
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(true);
    m_heat = new HeatDelegate(m_tree);
    m_heatAfter = new HeatDelegate(m_tree, 0.58);
    m_jumps = new JumpDelegate(m_tree);
    useSingleColumns();
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    m_tree->setFont(mono);
    m_tree->header()->setStretchLastSection(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_title);
    layout->addWidget(m_tree, 1);
}

void AsmView::showFunction(std::vector<std::shared_ptr<const Profile>> profiles, size_t type, std::string function)
{
    m_title->setText(tr("Disassembling %1...").arg(QString::fromStdString(function)));
    m_tree->clear();
    m_hottest = nullptr;
    m_job.start([profiles = std::move(profiles), type, function = std::move(function)] {
        return disassembleFunction(profiles, type, function);
    }, [this](AsmResult r) { setResult(r); });
}

void AsmView::showFunctionDiff(std::vector<std::shared_ptr<const Profile>> before,
                               std::vector<std::shared_ptr<const Profile>> after, size_t type, std::string function,
                               double noiseK)
{
    m_title->setText(tr("Disassembling %1 of both builds...").arg(QString::fromStdString(function)));
    m_tree->clear();
    m_hottest = nullptr;
    m_job.start([before = std::move(before), after = std::move(after), type, function = std::move(function), noiseK] {
        return disassembleFunctionDiff(before, after, type, function, noiseK);
    }, [this](AsmResult r) { setResult(r); });
}

// One build: Flat, Cum, Address, the jump gutter, Instruction.
void AsmView::useSingleColumns()
{
    for (int c = 0; c < 7; ++c)
        m_tree->setItemDelegateForColumn(c, nullptr);
    m_tree->setColumnCount(ColumnCount);
    for (int c = 0; c < ColumnCount; ++c)   // a comparison stretched its instruction columns
        m_tree->header()->setSectionResizeMode(c, QHeaderView::Interactive);
    m_tree->setHeaderLabels({tr("Flat"), tr("Cum"), tr("Address"), QString(), tr("Instruction")});
    m_tree->setItemDelegateForColumn(Flat, m_heat);
    m_tree->setItemDelegateForColumn(Cum, m_heat);
    m_tree->setItemDelegateForColumn(Jumps, m_jumps);
    m_tree->header()->setStretchLastSection(true);
}

QString AsmView::titleText() const
{
    return m_title->text();
}

void AsmView::setResult(const AsmResult &result)
{
    m_tree->clear();
    m_hottest = nullptr;
    if (result.diff) {
        showDiff(*result.diff);
        if (m_hottest) {
            m_tree->setCurrentItem(m_hottest);
            m_tree->scrollToItem(m_hottest, QAbstractItemView::PositionAtTop);
        }
        Q_EMIT disassemblyReady();
        return;
    }
    useSingleColumns();
    if (!result.disassembly) {
        m_title->setText(result.error);
        Q_EMIT disassemblyReady();
        return;
    }
    const Disassembly &d = *result.disassembly;
    QStringList names;
    int64_t hottest = 0;
    for (const DisasmRoutine &r : d.routines)
        for (const DisasmInstruction &in : r.instructions)
            hottest = std::max(hottest, in.cum);
    int64_t best = 0;
    int instructions = 0, lanes = 0;
    const QColor sourceBackground = palette().color(QPalette::AlternateBase);
    for (const DisasmRoutine &r : d.routines) {
        names << QString::fromStdString(r.name);
        auto *header = new QTreeWidgetItem(m_tree);
        header->setText(Flat, QString::fromStdString(pprofScaledLabel(r.flat, d.unit)));
        header->setText(Cum, QString::fromStdString(pprofScaledLabel(r.cum, d.unit)));
        header->setText(Address, QString::number(r.start, 16));
        header->setText(Text, QString::fromStdString(r.name + "  (" + r.binary + ")"));
        QFont bold = m_tree->font();
        bold.setBold(true);
        for (int c = 0; c < ColumnCount; ++c)
            header->setFont(c, bold);
        std::string function, file;
        int64_t line = -1;
        std::vector<QTreeWidgetItem *> rows, allRows;   // the instructions' rows; every row of the routine
        for (const DisasmInstruction &in : r.instructions) {
            if (in.function != function || in.file != file || in.line != line) {
                function = in.function, file = in.file, line = in.line;
                auto *src = new QTreeWidgetItem(m_tree);
                QString text = QString::fromStdString(file.substr(file.rfind('/') + 1)) + QLatin1Char(':') +
                               QString::number(line) + QStringLiteral("  ") + QString::fromStdString(function);
                const auto lines = result.sources.find(file);
                if (lines != result.sources.end() && line > 0 && size_t(line) <= lines->second.size())
                    text += QStringLiteral("    ") + lines->second[size_t(line - 1)];
                // In the instruction column, so the jump gutter's lanes run on through it.
                src->setText(Text, text);
                src->setData(Text, kSourceRole, true);
                for (int c = 0; c < ColumnCount; ++c)
                    src->setBackground(c, sourceBackground);
                src->setForeground(Text, palette().color(QPalette::PlaceholderText));
                src->setFlags(Qt::ItemIsEnabled);
                allRows.push_back(src);
            }
            auto *item = new QTreeWidgetItem(m_tree);
            item->setText(Flat, in.flat ? QString::fromStdString(pprofScaledLabel(in.flat, d.unit)) : QStringLiteral("."));
            item->setText(Cum, in.cum ? QString::fromStdString(pprofScaledLabel(in.cum, d.unit)) : QStringLiteral("."));
            item->setTextAlignment(Flat, Qt::AlignRight | Qt::AlignVCenter);
            item->setTextAlignment(Cum, Qt::AlignRight | Qt::AlignVCenter);
            item->setData(Flat, kFractionRole, hottest > 0 ? double(in.flat) / double(hottest) : 0.0);
            item->setData(Cum, kFractionRole, hottest > 0 ? double(in.cum) / double(hottest) : 0.0);
            item->setText(Address, QString::number(in.address, 16));
            item->setText(Text, QString::fromStdString(in.text));
            rows.push_back(item);
            allRows.push_back(item);
            ++instructions;
            if (in.cum > best) {   // the first of the largest cum
                best = in.cum;
                m_hottest = item;
            }
        }
        lanes = std::max(lanes, setJumpPieces(r.jumps, rows, allRows, Jumps));
    }
    for (int c = 0; c < Jumps; ++c)
        m_tree->resizeColumnToContents(c);
    m_tree->setColumnWidth(Jumps, 8 + lanes * JumpDelegate::kLaneWidth);
    // The heat bars need room beside the numbers.
    const int barWidth = m_tree->fontMetrics().horizontalAdvance(QStringLiteral("0000.00ms")) + 24;
    for (int c : {int(Flat), int(Cum)})
        m_tree->setColumnWidth(c, std::max(m_tree->columnWidth(c), barWidth));
    m_title->setText(tr("%1: %2 instructions, total %3").arg(names.join(QStringLiteral(", ")))
                         .arg(instructions)
                         .arg(QString::fromStdString(pprofScaledLabel(d.total, d.unit))));
    if (m_hottest) {
        m_tree->setCurrentItem(m_hottest);
        m_tree->scrollToItem(m_hottest, QAbstractItemView::PositionAtCenter);
    }
    Q_EMIT disassemblyReady();
}

}   // namespace qflame
