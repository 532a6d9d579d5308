package vocab

// MaxPerHour is the highest price of an endpoint's hardware (its cost:
// per_hour) a suite or a results file may give, USD an hour.
const MaxPerHour = 1e6

// MinPerHour is the lowest: a tenth of a cent an hour (a price below it
// is a typo, and its costs round to nothing in a results file).
const MinPerHour = 1e-3

// MinGoodTPS is the least goodput, output tokens a second within the SLO,
// that a cost is computed from: below it a level served next to nothing
// and has no cost (its goodput_tps rounds to 0 in a results file).
const MinGoodTPS = 1e-3
