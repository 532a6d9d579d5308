package gate

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/latgate/latgate/compare"
	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/suite"
	"github.com/latgate/latgate/vocab"
)

// readConfigFile reads a suite or a prompt file it names, at most 16 MiB.
func readConfigFile(path string) ([]byte, error) { return fileio.ReadLimited(path, 16<<20) }

// suiteFiles reads the files a suite names (prompt_file, content_file,
// result_file), each at most 16 MiB, only from inside the repository that
// holds the suite: a pull request's suite must not send the runner's files
// (/proc/self/environ, keys) to an endpoint.
func suiteFiles(config string) func(string) ([]byte, error) {
	root := fileio.Root(filepath.Dir(config))
	return func(path string) ([]byte, error) { return fileio.ReadInside(root, path, 16<<20) }
}

// LoadConfig reads and validates a suite; every error is bad input. With
// skipKeys the API keys are not resolved (compare needs none).
func LoadConfig(path string, getenv func(string) string, skipKeys bool) (*suite.Config, error) {
	b, err := readConfigFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, BadInputf("%s: no such file (give the suite with -c FILE; latgate init writes one)", path)
		}
		return nil, BadInputf("%s: %v", path, fileio.PathCause(err))
	}
	cfg, err := suite.Parse(path, b, suite.Options{ReadFile: suiteFiles(path), Getenv: getenv, SkipKeys: skipKeys})
	if err != nil {
		return nil, AsBadInput(err)
	}
	return cfg, nil
}

// ConfigWarnings prints the config's warnings (a price for a model no
// endpoint uses, …): problems that do not stop the run.
func ConfigWarnings(w io.Writer, cfg *suite.Config) {
	if w == nil || cfg == nil {
		return
	}
	for _, e := range cfg.Warnings {
		fmt.Fprintln(w, "latgate: warning: "+e.Error())
	}
}

// Overrides are threshold values given as flags or Action inputs, in the
// config's own syntax ("10%", "25ms", "0.05", "regression,over_budget");
// empty means "keep the config's".
type Overrides struct {
	Tolerance, MinDelta, Alpha, FailOn string
}

// CompareConfig builds the comparison settings once: the config's regression
// section and budgets (defaults when cfg is nil), then the overrides.
func CompareConfig(cfg *suite.Config, o Overrides) (compare.Config, error) {
	reg := suite.Regression{
		Tolerance: suite.DefaultTolerance, MinDelta: suite.DefaultMinDelta,
		Alpha: suite.DefaultAlpha, FailOn: suite.DefaultFailOn,
	}
	var budgets []suite.Budget
	if cfg != nil {
		reg, budgets = cfg.Regression, cfg.Budgets
	}
	// The same parsers as the config's keys: a flag accepts and rejects
	// what the file does.
	if o.Tolerance != "" {
		v, err := suite.ParseTolerance(o.Tolerance)
		if err != nil {
			return compare.Config{}, BadInputf("tolerance: %v", err)
		}
		reg.Tolerance = v
	}
	if o.MinDelta != "" {
		v, err := suite.ParseMinDelta(o.MinDelta)
		if err != nil {
			return compare.Config{}, BadInputf("min-delta: %v", err)
		}
		reg.MinDelta = v
	}
	if o.Alpha != "" {
		v, err := suite.ParseAlpha(o.Alpha)
		if err != nil {
			return compare.Config{}, BadInputf("alpha: %v", err)
		}
		reg.Alpha = v
	}
	if o.FailOn != "" {
		fo, err := suite.ParseFailOn([]string{o.FailOn})
		if err != nil {
			return compare.Config{}, BadInputf("fail-on: %v", err)
		}
		reg.FailOn = fo
	}
	c := compare.Config{
		Tolerance: reg.Tolerance, MinDelta: float64(reg.MinDelta.Microseconds()) / 1000, Alpha: reg.Alpha,
		FailOn: append([]vocab.Status{}, reg.FailOn...), Confirm: reg.Confirm,
	}
	if cfg != nil {
		for _, f := range cfg.Floors {
			c.Floors = append(c.Floors, compare.Budget{Metric: f.Metric, Stat: f.Stat, Value: f.Value})
		}
		for _, o := range cfg.Goodput {
			c.Goodput = append(c.Goodput, compare.SLO{Metric: o.Metric, Max: float64(o.Max.Microseconds()) / 1000})
		}
	}
	for _, b := range budgets {
		v := b.Value
		if !b.Metric.IsRate() {
			v *= 1000 // latency: the suite's seconds to the comparison's milliseconds
		}
		c.Budgets = append(c.Budgets, compare.Budget{Metric: b.Metric, Stat: b.Stat, Value: v})
	}
	return c, nil
}
