#include "report/InfoReport.h"

#include "pprof/Units.h"
#include "report/JsonOut.h"

#include <chrono>
#include <cstdio>

namespace qflame {

namespace {

std::string formatTime(int64_t nanos)
{
    if (nanos == 0)
        return "-";
    // ISO 8601 in UTC with milliseconds ("2026-11-29T20:18:23.205Z"); nothing for a year past 0-9999, which
    // that form cannot write (as Qt's ISODateWithMs, which this wrote before).
    using namespace std::chrono;
    const sys_time<milliseconds> at{milliseconds(nanos / 1000000)};
    const sys_days day = floor<days>(at);
    const year_month_day ymd(day);
    if (int(ymd.year()) < 0 || int(ymd.year()) > 9999)
        return "";
    const hh_mm_ss<milliseconds> t(at - day);
    char buf[40];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ", int(ymd.year()), unsigned(ymd.month()),
                  unsigned(ymd.day()), int(t.hours().count()), int(t.minutes().count()), int(t.seconds().count()),
                  int(t.subseconds().count()));
    return buf;
}

}   // namespace

void writeInfoText(const Profile &p, const TextSink &out)
{
    std::string s = "File: " + p.sourceName + "\nSample types:\n";
    const int dflt = p.effectiveDefaultType();
    for (size_t i = 0; i < p.sampleTypes.size(); ++i)
        s += "  " + std::to_string(i) + "  " + p.typeName(i) + "/" + p.unitName(i) +
             (int(i) == dflt ? "  [default]" : "") + "  total " + std::to_string(p.total(i)) + " (" +
             formatValue(double(p.total(i)), p.unitName(i)) + ")\n";
    s += "Samples: " + std::to_string(p.fileSampleCount()) + "\n";
    s += "Locations: " + std::to_string(p.locations.size()) + "\n";
    s += "Functions: " + std::to_string(p.functions.size()) + "\n";
    s += "Mappings: " + std::to_string(p.mappings.size()) + "\n";
    s += "Period: " + std::to_string(p.period) + " " + std::string(p.str(p.periodType.type)) + "/" +
         std::string(p.str(p.periodType.unit)) + "\n";
    s += "Time: " + formatTime(p.timeNanos) + "\n";
    s += "Duration: " + std::to_string(p.durationNanos) + " ns (" +
         formatValue(double(p.durationNanos), "nanoseconds") + ")\n";
    if (p.dropFrames)
        s += "Drop frames: " + std::string(p.str(p.dropFrames)) + "\n";
    if (p.keepFrames)
        s += "Keep frames: " + std::string(p.str(p.keepFrames)) + "\n";
    for (uint32_t c : p.comments)
        s += "Comment: " + std::string(p.str(c)) + "\n";
    out(s);
}

std::string infoJson(const Profile &p)
{
    JsonOut j;
    j.beginObject();
    j.field("report", "info");
    j.field("version", 1);
    j.field("file", p.sourceName);
    j.key("sample_types");
    j.beginArray();
    const int dflt = p.effectiveDefaultType();
    for (size_t i = 0; i < p.sampleTypes.size(); ++i) {
        j.beginObject();
        j.field("index", int64_t(i));
        j.field("type", p.typeName(i));
        j.field("unit", p.unitName(i));
        j.fieldBool("default", int(i) == dflt);
        j.field("total", p.total(i));
        j.endObject();
    }
    j.endArray();
    j.field("samples", int64_t(p.fileSampleCount()));
    j.field("locations", int64_t(p.locations.size()));
    j.field("functions", int64_t(p.functions.size()));
    j.field("mappings", int64_t(p.mappings.size()));
    j.field("period", p.period);
    j.key("period_type");
    j.beginObject();
    j.field("type", p.str(p.periodType.type));
    j.field("unit", p.str(p.periodType.unit));
    j.endObject();
    j.field("time_nanos", p.timeNanos);
    j.field("duration_nanos", p.durationNanos);
    j.key("drop_frames");
    p.dropFrames ? j.string(p.str(p.dropFrames)) : j.null();
    j.key("keep_frames");
    p.keepFrames ? j.string(p.str(p.keepFrames)) : j.null();
    j.key("comments");
    j.beginArray();
    for (uint32_t c : p.comments)
        j.string(p.str(c));
    j.endArray();
    j.endObject();
    return j.text();
}

}   // namespace qflame
