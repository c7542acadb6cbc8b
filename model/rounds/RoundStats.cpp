#include "rounds/RoundStats.h"

#include "pprof/Profile.h"
#include "pprof/Units.h"

#include <cstdio>

#include <cmath>
#include <limits>

namespace qflame {

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kNanosPerSecond = 1e9;

}   // namespace

const char *errorBasisName(ErrorBasis b)
{
    switch (b) {
    case ErrorBasis::Spread: return "spread of the observations";
    case ErrorBasis::Poisson: return "Poisson";
    case ErrorBasis::None: break;
    }
    return "none";
}

bool RateEstimate::rateKnown() const
{
    return std::isfinite(rate);
}

bool RateEstimate::errorKnown() const
{
    return std::isfinite(standardError);
}

RateEstimate estimateRate(const std::vector<Observation> &observations, double poissonSamples)
{
    RateEstimate e;
    e.k = observations.size();
    bool durationsKnown = !observations.empty();
    for (const Observation &o : observations) {
        e.total = wrappingAdd(e.total, o.value);
        e.durationNanos = wrappingAdd(e.durationNanos, o.durationNanos);
        durationsKnown = durationsKnown && o.durationNanos > 0;
    }
    if (!durationsKnown || e.durationNanos <= 0) {
        e.durationNanos = 0;
        e.rate = e.standardError = kNan;
        return e;
    }
    // In doubles: the residuals of values in the 1e12 range square to 1e24, past int64.
    const double sumD = double(e.durationNanos);
    const double perNano = double(e.total) / sumD;
    e.rate = perNano * kNanosPerSecond;
    if (e.k >= 2) {
        double squares = 0;
        for (const Observation &o : observations) {
            const double residual = double(o.value) - perNano * double(o.durationNanos);
            squares += residual * residual;
        }
        e.standardError = std::sqrt(double(e.k) / double(e.k - 1) * squares) / sumD * kNanosPerSecond;
        e.basis = ErrorBasis::Spread;
    } else if (poissonSamples > 0) {
        e.standardError = std::fabs(double(e.total)) / std::sqrt(poissonSamples) / sumD * kNanosPerSecond;
        e.basis = ErrorBasis::Poisson;
    } else if (e.total == 0) {
        e.standardError = 0;   // no samples at all: a count of zero, whose Poisson error is zero
        e.basis = ErrorBasis::Poisson;
    } else {
        e.standardError = kNan;
    }
    return e;
}

RateEstimate estimateMean(const std::vector<double> &values)
{
    RateEstimate e;
    e.k = values.size();
    if (values.empty()) {
        e.rate = e.standardError = kNan;
        return e;
    }
    double sum = 0;
    for (double v : values)
        sum += v;
    e.total = int64_t(std::llround(sum));
    e.durationNanos = int64_t(e.k) * int64_t(kNanosPerSecond);
    e.rate = sum / double(e.k);
    e.standardError = kNan;
    if (e.k >= 2) {
        double squares = 0;
        for (double v : values)
            squares += (v - e.rate) * (v - e.rate);
        e.standardError = std::sqrt(double(e.k) / double(e.k - 1) * squares) / double(e.k);
        e.basis = ErrorBasis::Spread;
    }
    return e;
}

const char *verdictName(RoundVerdict v)
{
    switch (v) {
    case RoundVerdict::Baseline: return "baseline";
    case RoundVerdict::Faster: return "faster";
    case RoundVerdict::Slower: return "slower";
    case RoundVerdict::Noise: return "noise";
    case RoundVerdict::Unknown: break;
    }
    return "unknown";
}

std::string formatRate(double perSecond, const std::string &unit)
{
    if (!std::isfinite(perSecond))
        return "?";
    char buf[64];
    if (unit == "nanoseconds") {
        snprintf(buf, sizeof buf, "%.4g cores", perSecond / 1e9);
        return buf;
    }
    if (unit == "bytes")
        return formatValue(perSecond, unit) + "/s";
    snprintf(buf, sizeof buf, "%.4g %s/s", perSecond, unit.c_str());
    return buf;
}

double observationRate(const Observation &o)
{
    return o.durationNanos > 0 ? double(o.value) / double(o.durationNanos) * 1e9 : std::nan("");
}

std::string formatRateWithError(double perSecond, double standardError, const std::string &unit)
{
    if (unit == "nanoseconds" && std::isfinite(perSecond)) {
        char buf[64];
        if (std::isfinite(standardError))
            snprintf(buf, sizeof buf, "%.4g ± %.2g cores", perSecond / 1e9, standardError / 1e9);
        else
            snprintf(buf, sizeof buf, "%.4g ± ? cores", perSecond / 1e9);
        return buf;
    }
    return formatRate(perSecond, unit) + " ± " + formatRate(standardError, unit);
}

std::string formatChangePercent(double percent)
{
    if (!std::isfinite(percent))
        return "?";
    char buf[32];
    snprintf(buf, sizeof buf, "%+.2f%%", percent);
    return buf;
}

RateChange compareRates(const RateEstimate &base, const RateEstimate &other, double k)
{
    RateChange c;
    if (!base.rateKnown() || !other.rateKnown()) {
        c.delta = c.percent = c.standardError = kNan;
        return c;
    }
    c.delta = other.rate - base.rate;
    c.percent = base.rate != 0 ? c.delta / base.rate * 100 : kNan;
    c.standardError = std::sqrt(base.standardError * base.standardError +
                                other.standardError * other.standardError);   // NaN when either is unknown
    if (k > 0 && !std::isfinite(c.standardError))
        c.verdict = RoundVerdict::Unknown;
    else if (c.delta != 0 && std::fabs(c.delta) > k * (k > 0 ? c.standardError : 0))
        c.verdict = c.delta > 0 ? RoundVerdict::Slower : RoundVerdict::Faster;
    else
        c.verdict = RoundVerdict::Noise;
    return c;
}

}   // namespace qflame
