package vocab

// MaxPerHour is the highest price of an endpoint's hardware (its cost:
// per_hour) a suite or a results file may give, USD an hour.
const MaxPerHour = 1e6
