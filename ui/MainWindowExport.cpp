// File > Export: what the current tab shows (filters applied), as gzip pprof, folded stacks or speedscope JSON (the
// bytes of `qflame convert --to`: export/StackExport), the top or diff table as CSV, or the flamegraph as PNG or SVG.
#include "MainWindow.h"

#include "compare/DiffView.h"
#include "document/DocumentPane.h"
#include "explorer/QrynExplorer.h"
#include "export/StackExport.h"
#include "export/TableCsv.h"
#include "flame/FlameGraphWidget.h"
#include "flame/FlameView.h"
#include "tree/CallTreeBuilder.h"

#include "controls/LatestJob.h"

#include <QFileDialog>
#include <QStatusBar>

#include <algorithm>

namespace qflame {

ProfilePane *MainWindow::exportPane() const
{
    if (ProfilePane *p = currentProfile())
        return p;
    auto *explorer = qobject_cast<qryn::QrynExplorer *>(m_tabs->currentWidget());
    return explorer && !explorer->showingDiff() ? explorer->profilePane() : nullptr;
}

DiffView *MainWindow::exportDiffView() const
{
    if (DiffPane *d = currentDiff())
        return d->diffView();
    auto *explorer = qobject_cast<qryn::QrynExplorer *>(m_tabs->currentWidget());
    return explorer && explorer->showingDiff() ? explorer->diffView() : nullptr;
}

FlameGraphWidget *MainWindow::exportGraph() const
{
    if (ProfilePane *p = exportPane())
        return p->flameGraph();
    DiffView *d = exportDiffView();
    return d ? d->diffGraph()->graph() : nullptr;
}

bool MainWindow::canExport(ExportFormat format) const
{
    const ProfilePane *p = exportPane();
    switch (format) {
    case ExportFormat::Pprof:
    case ExportFormat::Folded:
    case ExportFormat::Speedscope: return p && p->view().tree;
    case ExportFormat::TopCsv: return p && p->view().flat;
    case ExportFormat::DiffCsv: return exportDiffView() && exportDiffView()->diffTable();
    case ExportFormat::Png:
    // Not from a first look (ProfilePane): the export's width and zoom are its own.
    case ExportFormat::Svg: return exportGraph() && exportGraph()->source() && (!p || p->view().tree);
    }
    return false;
}

void MainWindow::updateExportActions()
{
    for (int f = 0; f < m_exportActions.size(); ++f)
        m_exportActions[f]->setEnabled(canExport(ExportFormat(f)));
}

void MainWindow::exportDialog(ExportFormat format)
{
    if (!canExport(format))
        return;
    struct Kind {
        QString title, name, filter;
    };
    const Kind kinds[] = {
        {tr("Export Profile as pprof"), QStringLiteral("profile.pb.gz"), tr("pprof (*.pb.gz)")},
        {tr("Export Folded Stacks"), QStringLiteral("profile.folded"), tr("Folded stacks (*.folded *.txt)")},
        {tr("Export Top Table as CSV"), QStringLiteral("top.csv"), tr("CSV (*.csv)")},
        {tr("Export Diff Table as CSV"), QStringLiteral("diff.csv"), tr("CSV (*.csv)")},
        {tr("Export PNG"), QStringLiteral("flamegraph.png"), tr("PNG images (*.png)")},
        {tr("Export SVG"), QStringLiteral("flamegraph.svg"), tr("SVG images (*.svg)")},
        {tr("Export Speedscope JSON"), QStringLiteral("profile.speedscope.json"), tr("Speedscope (*.json)")},
    };
    const Kind &k = kinds[int(format)];
    const QString path = QFileDialog::getSaveFileName(this, k.title, k.name, k.filter);
    if (!path.isEmpty())
        exportInBackground(format, path);
}

bool MainWindow::exportTo(ExportFormat format, const QString &path)
{
    if (!canExport(format))
        return false;
    QString error;
    if (format == ExportFormat::Png || format == ExportFormat::Svg)
        error = writePicture(format, path);
    else
        error = exportWork(format, path)();
    return exportDone(path, error, exportFiltered(format));
}

void MainWindow::exportInBackground(ExportFormat format, const QString &path)
{
    if (!canExport(format))
        return;
    if (format == ExportFormat::Png || format == ExportFormat::Svg) {   // painted by the widget, on its thread
        exportDone(path, writePicture(format, path), false);
        return;
    }
    const bool filtered = exportFiltered(format);
    statusBar()->showMessage(tr("Writing %1...").arg(path));
    // Not a LatestJob: a second export started meanwhile must neither cancel this one nor drop its error.
    runEach<QString>(this, exportWork(format, path), [this, path, filtered](QString error) {
        exportDone(path, error, filtered);
    });
}

bool MainWindow::exportFiltered(ExportFormat format) const
{
    const ProfilePane *p = exportPane();
    return format != ExportFormat::DiffCsv && p && p->view().filters.any();
}

QString MainWindow::writePicture(ExportFormat format, const QString &path)
{
    FlameGraphWidget *g = exportGraph();
    // At least 1200 px, so that an export from a narrow window still has readable labels.
    const int width = std::max(g->width(), 1200);
    const bool ok = format == ExportFormat::Svg ? g->writeSvg(path, width) : g->renderImage(width).save(path, "PNG");
    return ok ? QString() : tr("%1: cannot write").arg(path);
}

std::function<QString()> MainWindow::exportWork(ExportFormat format, const QString &path) const
{
    // Only immutable, shared model results are captured: the tab may change or close while the work runs.
    if (format == ExportFormat::DiffCsv)
        return [table = exportDiffView()->sharedDiffTable(), path] {
            return writeExportFileOrError(path, diffTableCsv(*table));
        };
    const LoadedView &v = exportPane()->view();
    if (format == ExportFormat::TopCsv)
        return [flat = v.flat, path] { return writeExportFileOrError(path, flatTableCsv(*flat)); };
    const StackFormat stacks = format == ExportFormat::Pprof    ? StackFormat::Pprof
                               : format == ExportFormat::Folded ? StackFormat::Folded
                                                                : StackFormat::Speedscope;
    return [v, stacks, path] {
        // Stacks are written root first: a bottom-up tab's stacks are those of its top-down tree, built here.
        std::shared_ptr<const CallTree> tree = v.tree;
        if (tree->isInverted()) {
            BuildOptions topDown;
            topDown.granularity = v.granularity;
            topDown.filters = v.filters;
            topDown.filters.inverted = false;
            tree = CallTreeBuilder::build(v.profiles, size_t(v.sampleType), topDown);
        }
        return writeExportFileOrError(
            path, stackExportBytes(*tree, stacks, speedscopeProfileName(*v.profiles.front(), size_t(v.sampleType))));
    };
}

bool MainWindow::exportDone(const QString &path, const QString &error, bool filtered)
{
    if (!error.isEmpty()) {
        showError(error, tr("Cannot export"));
        return false;
    }
    statusBar()->showMessage(filtered ? tr("Wrote %1 (with the active filters)").arg(path) : tr("Wrote %1").arg(path),
                             5000);
    Q_EMIT exported(path);
    return true;
}

}   // namespace qflame
