// The arithmetic of rounds: a round's rate from its observations, the standard error of that rate measured
// from the spread of the observations, and the verdict on the change between two rounds.
//
// A round is k observations (a profile file, or a step of a server query's window), each a value v_i (the total
// of one sample type) over a duration d_i. Its rate is the ratio estimator R = Σv / Σd, and for k >= 2 its
// standard error is the ratio estimator's,
//     SE = sqrt(k / (k - 1) · Σ (v_i - R·d_i)²) / Σd,
// which knows of every source of variation between observations (load, GC, scheduling), not only of sampling.
// With k = 1 there is no spread to measure: the Poisson error of the samples behind the value is used where
// their number is known (SE = v / sqrt(n) / d), and the estimate says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace qflame {

struct Observation {
    int64_t value = 0;            // in the sample type's unit
    int64_t durationNanos = 0;    // 0: unknown
    std::string source;           // the file or step it came from, for messages
};
// One observation's value per second (the rounds chart's points); NaN when its duration is unknown.
double observationRate(const Observation &o);

enum class ErrorBasis { Spread, Poisson, None };
const char *errorBasisName(ErrorBasis b);   // "spread of k observations", "Poisson", "none"

struct RateEstimate {
    size_t k = 0;
    int64_t total = 0;            // Σv (wrapping as Go's int64 does)
    int64_t durationNanos = 0;    // Σd; 0 when any observation's duration is unknown
    double rate = 0;              // Σv / Σd per second; NaN when the duration is unknown
    double standardError = 0;     // of the rate, per second; NaN when unknown
    ErrorBasis basis = ErrorBasis::None;

    bool rateKnown() const;
    bool errorKnown() const;
};

// `poissonSamples`: for k = 1, the number of samples behind the value (<= 0: unknown); ignored for k >= 2.
RateEstimate estimateRate(const std::vector<Observation> &observations, double poissonSamples = 0);
// A round of values of equal weight (a gauge's per-step values, in its unit): the ratio estimator with every
// duration one second, that is the mean of the values as the rate and, for k >= 2, sqrt(k/(k-1)·Σ(v - mean)²)/k
// as its standard error (the spread's); for k = 1 the error is unknown. `total` is Σv rounded.
RateEstimate estimateMean(const std::vector<double> &values);

enum class RoundVerdict { Baseline, Faster, Slower, Noise, Unknown };
const char *verdictName(RoundVerdict v);   // "baseline", "faster", "slower", "noise", "unknown"

struct RateChange {
    double delta = 0;             // R_j - R_base, per second
    double percent = 0;           // of R_base; NaN when R_base is 0 or unknown
    double standardError = 0;     // sqrt(SE_base² + SE_j²)
    RoundVerdict verdict = RoundVerdict::Unknown;
};

// Slower (delta > 0) or faster when |delta| > k · SE_delta, else noise; k = 0 turns the noise test off (the
// sign decides). Unknown when either rate is, or when the test needs an error that either side lacks.
RateChange compareRates(const RateEstimate &base, const RateEstimate &other, double k);

// For people, as the CLI's tables and the rounds tab show them: a rate per second in the sample type's unit
// (CPU nanoseconds per second as cores, bytes per second scaled), "?" when unknown; a change as "+1.48%".
std::string formatRate(double perSecond, const std::string &unit);
// A rate and its standard error as the rounds tab shows them: CPU as "0.9652 ± 0.031 cores" (4 and 2 significant
// digits), other units as formatRate's "X ± Y".
std::string formatRateWithError(double perSecond, double standardError, const std::string &unit);
std::string formatChangePercent(double percent);

}   // namespace qflame
