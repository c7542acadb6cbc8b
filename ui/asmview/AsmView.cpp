#include "asmview/AsmView.h"

#include "pprof/PprofLabels.h"

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cstdlib>

namespace qflame {

namespace {

constexpr int kFractionRole = Qt::UserRole + 1;   // a cost column's share of the routine's largest cum
enum Column { Flat, Cum, Address, Text, ColumnCount };

// The flat and cum cells: a bar as long as the value's share of the hottest instruction's cum, the number over it.
class HeatDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        const double fraction = index.data(kFractionRole).toDouble();
        if (fraction > 0) {
            QRect bar = option.rect.adjusted(2, 3, -2, -3);
            bar.setWidth(std::max(2, int(bar.width() * fraction)));
            painter->fillRect(bar, QColor::fromHsvF(0.05, 0.25 + 0.65 * fraction, 0.98));
        }
        QStyledItemDelegate::paint(painter, option, index);
    }
};

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

QRegularExpression exactName(const std::string &function)
{
    // The name whole, wherever pprof's printable name (address, name, file:line) or a symbol holds it.
    const QString escaped = QRegularExpression::escape(QString::fromStdString(function));
    return QRegularExpression(QStringLiteral("(?:^|\\s)") + escaped + QStringLiteral("(?:\\s|$)"));
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
        out.diff = std::make_shared<DisasmDiff>(diffDisassembly(b, a, noiseK));
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
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Flat"), tr("Cum"), tr("Address"), tr("Instruction")});
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(true);
    auto *heat = new HeatDelegate(m_tree);
    m_tree->setItemDelegateForColumn(Flat, heat);
    m_tree->setItemDelegateForColumn(Cum, heat);
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

void AsmView::showDiff(const DisasmDiff &d)
{
    m_tree->setHeaderLabels({tr("Before"), tr("After"), tr("Delta"), tr("Source line / instruction")});
    int64_t largest = 0;
    for (const DisasmGroup &g : d.groups)
        largest = std::max({largest, g.beforeCum, g.afterCum});
    auto label = [&d](int64_t v) { return v ? QString::fromStdString(pprofScaledLabel(v, d.unit)) : QStringLiteral("."); };
    int64_t bestDelta = 0;
    for (const DisasmGroup &g : d.groups) {
        auto *group = new QTreeWidgetItem(m_tree);
        group->setText(Flat, label(g.beforeCum));
        group->setText(Cum, label(g.afterCum));
        const int64_t delta = g.cumDelta();
        group->setText(Address, delta == 0 ? QStringLiteral(".")
                                           : (delta > 0 ? QStringLiteral("+") : QString()) + label(delta));
        group->setData(Flat, kFractionRole, largest > 0 ? double(g.beforeCum) / double(largest) : 0.0);
        group->setData(Cum, kFractionRole, largest > 0 ? double(g.afterCum) / double(largest) : 0.0);
        const QString where = g.file.empty() ? tr("(no line)")
                                             : QString::fromStdString(g.file.substr(g.file.rfind('/') + 1)) +
                                                   QLatin1Char(':') + QString::number(g.line);
        group->setText(Text, where + QStringLiteral("  ") + QString::fromStdString(g.function) + QStringLiteral("  ") +
                                 QString::fromLatin1(diffClassName(g.cls)));
        QColor tint = palette().color(QPalette::AlternateBase);
        if (g.cls == DiffClass::Slower || g.cls == DiffClass::New)
            tint = QColor(250, 215, 205);
        else if (g.cls == DiffClass::Faster || g.cls == DiffClass::Removed)
            tint = QColor(210, 240, 215);
        for (int c = Address; c < ColumnCount; ++c)
            group->setBackground(c, tint);
        QFont bold = m_tree->font();
        bold.setBold(true);
        group->setFont(Text, bold);
        if (std::abs(delta) > bestDelta) {
            bestDelta = std::abs(delta);
            m_hottest = group;
        }
        for (int side = 0; side < 2; ++side)
            for (const DisasmInstruction &in : side ? g.after : g.before) {
                auto *item = new QTreeWidgetItem(m_tree);
                item->setText(side ? Cum : Flat, label(in.cum));
                item->setText(Text, (side ? QStringLiteral("after   ") : QStringLiteral("before  ")) +
                                        QString::number(in.address, 16) + QStringLiteral("  ") +
                                        QString::fromStdString(in.text));
                item->setForeground(Text, side ? QColor(40, 40, 40) : QColor(110, 110, 110));
            }
    }
    m_title->setText(tr("%1 groups by source line: total %2 -> %3 (cum before, after, delta)")
                         .arg(d.groups.size())
                         .arg(QString::fromStdString(pprofScaledLabel(d.beforeTotal, d.unit)),
                              QString::fromStdString(pprofScaledLabel(d.afterTotal, d.unit))));
}

QString AsmView::titleText() const
{
    return m_title->text();
}

void AsmView::setResult(const AsmResult &result)
{
    m_tree->clear();
    m_hottest = nullptr;
    m_tree->setHeaderLabels({tr("Flat"), tr("Cum"), tr("Address"), tr("Instruction")});
    if (result.diff) {
        showDiff(*result.diff);
        for (int c = 0; c < Text; ++c)
            m_tree->resizeColumnToContents(c);
        if (m_hottest) {
            m_tree->setCurrentItem(m_hottest);
            m_tree->scrollToItem(m_hottest, QAbstractItemView::PositionAtTop);
        }
        Q_EMIT disassemblyReady();
        return;
    }
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
    int instructions = 0;
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
        for (const DisasmInstruction &in : r.instructions) {
            if (in.function != function || in.file != file || in.line != line) {
                function = in.function, file = in.file, line = in.line;
                auto *src = new QTreeWidgetItem(m_tree);
                QString text = QString::fromStdString(file.substr(file.rfind('/') + 1)) + QLatin1Char(':') +
                               QString::number(line) + QStringLiteral("  ") + QString::fromStdString(function);
                const auto lines = result.sources.find(file);
                if (lines != result.sources.end() && line > 0 && size_t(line) <= lines->second.size())
                    text += QStringLiteral("    ") + lines->second[size_t(line - 1)];
                src->setText(0, text);
                src->setFirstColumnSpanned(true);
                src->setBackground(0, sourceBackground);
                src->setForeground(0, palette().color(QPalette::PlaceholderText));
                src->setFlags(Qt::ItemIsEnabled);
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
            ++instructions;
            if (in.cum > best) {   // the first of the largest cum
                best = in.cum;
                m_hottest = item;
            }
        }
    }
    for (int c = 0; c < Text; ++c)
        m_tree->resizeColumnToContents(c);
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
