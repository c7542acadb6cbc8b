#include "explorer/QrynExplorer.h"

#include "explorer/ConnectionDialog.h"
#include "explorer/ConnectionStore.h"
#include "explorer/LabelGroupView.h"
#include "explorer/LabelSelectorEdit.h"
#include "explorer/ProfileListView.h"
#include "explorer/RangeList.h"
#include "explorer/TimelineView.h"
#include "explorer/TimelineWidget.h"

#include "compare/DiffView.h"
#include "document/DocumentPane.h"
#include "flame/FlameGraphWidget.h"
#include "qryn/ExportCheck.h"
#include "qryn/PprofExport.h"
#include "qryn/TimeSpec.h"
#include "qryn/TimelineSteps.h"

#include <QComboBox>
#include <QDateTime>
#include <QDateTimeEdit>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace qflame::qryn {

namespace {

constexpr qint64 kPresetMs[] = {15 * 60'000LL, 3'600'000LL, 6 * 3'600'000LL, 24 * 3'600'000LL, 7 * 24 * 3'600'000LL};

}   // namespace

QrynExplorer::QrynExplorer(ConnectionStore *store, QWidget *parent)
    : DocumentPane(parent), m_store(store ? store : new ConnectionStore(nullptr, this))
{
    // The server's flamegraph has one sample type at function granularity: the pane's own choosers say so.
    sampleTypeBox()->hide();
    granularityBox()->hide();
    for (int i = 0; i < header()->count(); ++i)
        if (auto *label = qobject_cast<QLabel *>(header()->itemAt(i)->widget()))
            label->hide();   // the choosers' captions

    m_connectionLabel = new QLabel(tr("not connected"));
    auto *connectButton = new QPushButton(tr("Connect..."));
    m_types = new QComboBox;
    m_types->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_selector = new LabelSelectorEdit;
    m_comparisonSelector = new LabelSelectorEdit;
    m_comparisonSelector->setPlaceholderText(tr("comparison selector (optional)"));
    m_presets = new QComboBox;
    m_presets->addItems({tr("Last 15 min"), tr("Last 1 h"), tr("Last 6 h"), tr("Last 24 h"), tr("Last 7 d"),
                         tr("Custom")});
    m_presets->setCurrentIndex(Hour1);
    m_from = new QDateTimeEdit;
    m_to = new QDateTimeEdit;
    for (QDateTimeEdit *e : {m_from, m_to}) {
        e->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        e->setCalendarPopup(true);
        e->setEnabled(false);
    }
    m_groupBy = new QComboBox;
    m_groupBy->addItem(tr("(no grouping)"), QString());
    m_load = new QPushButton(tr("Load"));
    m_load->setDefault(true);
    m_compare = new QPushButton(tr("Compare"));
    m_compare->setToolTip(tr("Baseline and comparison ranges brushed on the timeline (drag, Shift+drag), "
                             "or this range under the two selectors"));
    m_rounds = new QPushButton(tr("Rounds"));
    m_rounds->setToolTip(tr("The ranges (or selectors) of Compare as rounds in a rounds tab: one observation per "
                            "step of each, the noise measured from their spread"));
    m_save = new QPushButton(tr("Save merged profile..."));
    m_message = new QLabel;
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    m_timelineView = new TimelineView;
    m_timeline = m_timelineView->chart();
    m_profile = new ProfilePane;
    m_profile->flameGraph()->setPlaceholderText(
        tr("Choose a profile type and a time range, then press Load: the merged flamegraph shows here"));
    m_diff = new DiffView;
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_profile);
    m_stack->addWidget(m_diff);
    createMoreWidgets();

    auto *row1 = new QHBoxLayout;
    row1->addWidget(m_connectionLabel);
    row1->addWidget(connectButton);
    row1->addWidget(new QLabel(tr("Type:")));
    row1->addWidget(m_types);
    row1->addWidget(new QLabel(tr("Selector:")));
    row1->addWidget(m_selector, 2);
    row1->addWidget(m_comparisonSelector, 1);
    auto *row2 = new QHBoxLayout;
    row2->addWidget(m_presets);
    row2->addWidget(m_from);
    row2->addWidget(new QLabel(QStringLiteral("–")));
    row2->addWidget(m_to);
    row2->addWidget(new QLabel(tr("Group by:")));
    row2->addWidget(m_groupBy);
    row2->addStretch(1);
    row2->addWidget(m_load);
    row2->addWidget(m_compare);
    row2->addWidget(m_rounds);
    row2->addWidget(m_ranges->addRangeButton());
    row2->addWidget(m_ranges->addSelectorButton());
    row2->addWidget(m_profilesButton);
    row2->addWidget(m_save);
    header()->insertLayout(0, row2, 1);
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_timelineView);
    split->addWidget(m_groupView = createGroupView());   // hidden until grouped by a label
    split->addWidget(m_profileList);   // hidden until asked for
    split->addWidget(m_stack);
    // The timeline keeps its height (about 180 px at first) when the tab grows; the user's split is remembered.
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 2);
    split->setStretchFactor(2, 5);
    split->setChildrenCollapsible(false);
    split->restoreState(QSettings().value(QStringLiteral("explorer/timelineSplit")).toByteArray());
    connect(split, &QSplitter::splitterMoved, this, [split] {
        QSettings().setValue(QStringLiteral("explorer/timelineSplit"), split->saveState());
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(row1);
    layout->addLayout(header());
    layout->addWidget(m_ranges);
    auto *messageRow = new QHBoxLayout;
    messageRow->addWidget(m_message, 1);
    messageRow->addWidget(m_retry);
    layout->addLayout(messageRow);
    layout->addWidget(split, 1);

    connect(connectButton, &QPushButton::clicked, this, &QrynExplorer::connectDialog);
    // The dialog is gone when the keychain answers: the tab says where a secret was not stored.
    connect(m_store, &ConnectionStore::keychainError, this, [this](const QString &message) {
        showMessage(message, false);
        Q_EMIT requestFinished(QStringLiteral("keychain"), false, message);
    });
    connect(m_load, &QPushButton::clicked, this, &QrynExplorer::load);
    connect(m_selector, &QLineEdit::returnPressed, this, &QrynExplorer::load);
    connect(m_compare, &QPushButton::clicked, this, &QrynExplorer::compare);
    connect(m_save, &QPushButton::clicked, this, [this] { saveMerged(); });
    connect(m_rounds, &QPushButton::clicked, this, &QrynExplorer::openRounds);
    connect(m_presets, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_from->setEnabled(i == Custom);
        m_to->setEnabled(i == Custom);
        if (i != Custom)
            showPresetWindow();
    });
    showPresetWindow();   // not QDateTimeEdit's 2000-01-01 before the first load
    connect(m_groupBy, &QComboBox::currentIndexChanged, this, [this] {
        if (m_client && !profileType().isEmpty())
            loadTimeline(query());
    });
    connect(m_timelineView, &TimelineView::stepChanged, this, [this] {
        if (m_client && !profileType().isEmpty())
            loadTimeline(query());
    });
    connect(m_timeline, &TimelineWidget::brushed, this, [this](int which, const TimeRange &r) {
        // The baseline brush is the range of the flamegraph; the comparison brush waits for Compare.
        if (which == TimelineWidget::Baseline) {
            setCustomRange(r);
            loadFlamegraph(query());
        }
    });
    connect(m_profile, &DocumentPane::loadFinished, this, [this](bool ok, const QString &error) {
        if (!ok)
            showMessage(error, true);
    });
    for (LabelSelectorEdit *edit : {m_selector, m_comparisonSelector})
        connect(edit, &LabelSelectorEdit::valuesWanted, this, [this, edit](const QString &name) {
            if (!m_client)
                return;
            m_valuesJob.follow(m_client->labelValues(name, {}, range()), [this, name](Result<QStringList> r) {
                                   if (r.ok()) {
                                       m_selector->setLabelValues(name, r.value);
                                       m_comparisonSelector->setLabelValues(name, r.value);
                                   }
                               });
            Q_UNUSED(edit);
        });
    for (QWidget *w : {static_cast<QWidget *>(m_load), static_cast<QWidget *>(m_compare),
                       static_cast<QWidget *>(m_rounds), static_cast<QWidget *>(m_save),
                       static_cast<QWidget *>(m_profilesButton), static_cast<QWidget *>(m_ranges->addRangeButton()),
                       static_cast<QWidget *>(m_ranges->addSelectorButton())})
        w->setEnabled(false);
}

QrynExplorer::~QrynExplorer()
{
    if (m_client)
        m_client->cancelAll();
}

QString QrynExplorer::title() const
{
    return m_connectionName.isEmpty() ? tr("qryn") : tr("qryn: %1").arg(m_connectionName);
}

void QrynExplorer::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    m_message->setStyleSheet(error ? QStringLiteral("color: #b00020") : QStringLiteral("color: #8a5a00"));
    m_message->setVisible(!text.isEmpty());
    m_retry->setVisible(error && !text.isEmpty() && !m_failed.isEmpty());
}

QString QrynExplorer::message() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

bool QrynExplorer::showingDiff() const
{
    return m_stack->currentWidget() == m_diff;
}

void QrynExplorer::finished(const QString &what, bool ok, const QString &message)
{
    // Retry repeats what failed, once the server was asked at all (not "Not connected").
    if (ok || !m_client || !retryAction(what))
        m_failed.remove(what);
    else
        m_failed.insert(what);
    // The flamegraph's failure is the one the line keeps: the timeline's request fails alike (a silent server
    // times both out) and may come second; its message would hide why the main view is empty.
    const bool hidesFlamegraphFailure =
        what == QLatin1String("timeline") && m_failed.contains(QStringLiteral("flamegraph"));
    if (!message.isEmpty() && !hidesFlamegraphFailure)
        showMessage(message, !ok);
    Q_EMIT requestFinished(what, ok, message);
}

void QrynExplorer::connectDialog()
{
    ConnectionDialog dialog(m_store, this);
    if (m_client)
        dialog.setSettings(m_client->settings());
    if (dialog.exec() == QDialog::Accepted) {
        setConnection(dialog.settings(), dialog.connectionName());
        if (restoreQuery())
            loadWhenConnected();
    }
}

void QrynExplorer::setConnection(const ConnectionSettings &settings, const QString &name)
{
    if (m_client) {
        m_client->cancelAll();
        m_client->deleteLater();
    }
    m_client = new QrynClient(settings, this);
    m_connectionName = name.isEmpty() ? settings.displayUrl() : name;
    m_connectionLabel->setText(m_connectionName);
    m_selector->clearLabelValues();
    m_comparisonSelector->clearLabelValues();
    m_failed.clear();
    m_serverTypes.clear();
    showMessage(QString(), false);
    loadTypes();
    loadLabelNames();
}

void QrynExplorer::loadTypes()
{
    // Types seen in the last 7 days: ProfileTypes only lists types with data in the range it is given.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_typesJob.follow(m_client->profileTypes({now - kPresetMs[Days7], now}), [this](Result<QList<ProfileType>> r) {
                                  if (!r.ok())
                                      return finished(QStringLiteral("types"), false, r.error.message);
                                  const QString current = profileType();
                                  QStringList ids;
                                  for (const ProfileType &t : r.value)
                                      ids << t.id;
                                  ids.sort();   // the server's order is not defined
                                  m_serverTypes = ids;
                                  m_types->clear();
                                  m_types->addItems(ids);
                                  if (ids.contains(current))
                                      m_types->setCurrentText(current);
                                  for (QWidget *w : {static_cast<QWidget *>(m_load), static_cast<QWidget *>(m_compare),
                                                     static_cast<QWidget *>(m_rounds), static_cast<QWidget *>(m_save),
                                                     static_cast<QWidget *>(m_profilesButton),
                                                     static_cast<QWidget *>(m_ranges->addRangeButton()),
                                                     static_cast<QWidget *>(m_ranges->addSelectorButton())})
                                      w->setEnabled(!ids.isEmpty());
                                  finished(QStringLiteral("types"), true,
                                           ids.isEmpty() ? tr("%1 has no profiles in the last 7 days")
                                                               .arg(m_client->settings().displayUrl())
                                                         : QString());
                                  if (!ids.isEmpty() && std::exchange(m_loadWhenConnected, false))
                                      load();
                              });
}

void QrynExplorer::loadLabelNames()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_labelsJob.follow(m_client->labelNames({}, {now - kPresetMs[Days7], now}), [this](Result<QStringList> r) {
                           // Without label names only completion and grouping are missing; a broken connection
                           // is already said by ProfileTypes' message, which this one must not replace.
                           if (!r.ok())
                               return Q_EMIT requestFinished(QStringLiteral("labels"), false, r.error.message);
                           QStringList names = r.value;
                           names.sort();
                           m_selector->setLabelNames(names);
                           m_comparisonSelector->setLabelNames(names);
                           const QString group = m_groupBy->currentData().toString();
                           const QSignalBlocker block(m_groupBy);
                           m_groupBy->clear();
                           m_groupBy->addItem(tr("(no grouping)"), QString());
                           for (const QString &n : names)
                               m_groupBy->addItem(n, n);
                           m_groupBy->setCurrentIndex(std::max(0, m_groupBy->findData(group)));
                           finished(QStringLiteral("labels"), true, QString());
                       });
}

void QrynExplorer::setProfileType(const QString &id)
{
    if (m_types->findText(id) < 0)
        m_types->addItem(id);
    m_types->setCurrentText(id);
}

QString QrynExplorer::profileType() const
{
    return m_types->currentText();
}

void QrynExplorer::setSelector(const QString &selector)
{
    m_selector->setText(selector);
}

QString QrynExplorer::selector() const
{
    return m_selector->text().trimmed();
}

void QrynExplorer::setComparisonSelector(const QString &selector)
{
    m_comparisonSelector->setText(selector);
}

void QrynExplorer::setPreset(Preset preset)
{
    m_presets->setCurrentIndex(preset);
}

void QrynExplorer::setCustomRange(const TimeRange &r)
{
    m_from->setDateTime(QDateTime::fromMSecsSinceEpoch(r.startMs));
    m_to->setDateTime(QDateTime::fromMSecsSinceEpoch(r.endMs));
    // QDateTimeEdit keeps whole seconds; the exact ms are what the query uses.
    m_from->setProperty("ms", r.startMs);
    m_to->setProperty("ms", r.endMs);
    m_presets->setCurrentIndex(Custom);
}

TimeRange QrynExplorer::range() const
{
    const int preset = m_presets->currentIndex();
    if (preset != Custom) {
        const qint64 now = m_nowMs ? m_nowMs : QDateTime::currentMSecsSinceEpoch();
        return {now - kPresetMs[preset], now};
    }
    auto ms = [](QDateTimeEdit *e) {
        const QVariant exact = e->property("ms");
        const qint64 shown = e->dateTime().toMSecsSinceEpoch();
        // The exact value stands as long as the edit still shows it (to the second).
        return exact.isValid() && exact.toLongLong() / 1000 == shown / 1000 ? exact.toLongLong() : shown;
    };
    return {ms(m_from), ms(m_to)};
}

void QrynExplorer::showPresetWindow(std::optional<TimeRange> window)
{
    // The range edits show the preset's window, a starting point for a custom range.
    const TimeRange r = window ? *window : range();
    const QSignalBlocker b1(m_from), b2(m_to);
    m_from->setDateTime(QDateTime::fromMSecsSinceEpoch(r.startMs));
    m_to->setDateTime(QDateTime::fromMSecsSinceEpoch(r.endMs));
}

void QrynExplorer::setGroupBy(const QString &label)
{
    const int i = m_groupBy->findData(label);
    if (i < 0)
        m_groupBy->addItem(label, label);
    m_groupBy->setCurrentIndex(std::max(0, m_groupBy->findData(label)));
}

ProfileQuery QrynExplorer::query() const
{
    return {profileType(), selector(), range()};
}

bool QrynExplorer::ready(QString *why) const
{
    if (!m_client)
        *why = tr("Not connected: use Connect... first");
    else if (profileType().isEmpty())
        *why = tr("No profile type: %1 listed none").arg(m_client->settings().displayUrl());
    else
        return true;
    return false;
}

void QrynExplorer::rebuild()
{
    load();
}

void QrynExplorer::load()
{
    QString why;
    if (!ready(&why))
        return finished(QStringLiteral("flamegraph"), false, why);
    m_nowMs = QDateTime::currentMSecsSinceEpoch();   // one "now" for the flamegraph and the timeline
    const ProfileQuery q = query();
    m_nowMs = 0;
    m_loadQuery = q;
    if (m_presets->currentIndex() != Custom)
        showPresetWindow(q.range);
    m_timeline->clearBrushes();
    loadTimeline(q);
    loadFlamegraph(q);
}

void QrynExplorer::loadTimeline(const ProfileQuery &q)
{
    // The steps, the request and the values per step are the model's (qryn/TimelineSteps.h).
    ProfileType type;
    ProfileType::parse(q.profileTypeId, &type);
    const TimelinePlan plan =
        planTimeline(q, type, m_timelineView->chosenStepSeconds(), m_groupBy->currentData().toString());
    // The timeline shows the whole query window, also when a brushed sub-range is loaded later.
    m_timeline->setWindow(q.range);
    m_seriesJob.follow(m_client->selectSeries(plan.query, plan.options), [this, plan](Result<QList<Series>> r) {
                             if (!r.ok())
                                 return finished(QStringLiteral("timeline"), false, r.error.message);
                             showTimeline(stepTimeline(r.value, plan), plan.groupBy);
                             finished(QStringLiteral("timeline"), true, QString());
                         });
}

void QrynExplorer::loadFlamegraph(const ProfileQuery &q)
{
    m_flameQuery = q;
    m_flameJob.follow(m_client->selectMergeStacktraces(q), [this, q](Result<MergedFlamegraph> r) {
        if (!r.ok())
            return finished(QStringLiteral("flamegraph"), false, r.error.message);
        if (r.value.isEmpty())   // what was shown stays; the message says why nothing new came
            return finished(QStringLiteral("flamegraph"), false, noProfilesMessage(q));
        showMerged(std::move(r.value));
        setHasContent();
        rememberQuery();
        showMessage(QString(), false);
        finished(QStringLiteral("flamegraph"), true, QString());
    });
}

}   // namespace qflame::qryn
