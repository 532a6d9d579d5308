package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestSimDocListsEveryFlag: docs/simulator.md's table of flags has a row
// for every flag of latgate sim, from the command's own flag set, and no
// row names a flag the command does not have.
func TestSimDocListsEveryFlag(t *testing.T) {
	t.Parallel()
	var fs *flag.FlagSet
	for _, c := range commands().Commands {
		if c.Name == "sim" {
			fs = flag.NewFlagSet("sim", flag.ContinueOnError)
			c.Flags(fs)
		}
	}
	if fs == nil {
		t.Fatal("latgate has no command sim")
	}
	var flags []string
	fs.VisitAll(func(f *flag.Flag) { flags = append(flags, f.Name) })
	// A flag whose absence means something its help says (--gpus: one
	// GPU with --engine) shows no sentinel of the code's as its default.
	var help strings.Builder
	fs.SetOutput(&help)
	fs.PrintDefaults()
	if strings.Contains(help.String(), "(default -1)") {
		t.Errorf("latgate sim -h shows a sentinel as a default:\n%s", help.String())
	}
	if len(flags) < 20 {
		t.Fatalf("latgate sim has %d flags: %v", len(flags), flags)
	}
	b, err := os.ReadFile("../../docs/simulator.md")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := flagTable(string(b))
	if err != nil {
		t.Fatalf("docs/simulator.md: %v", err)
	}
	for _, name := range flags {
		if _, ok := rows[name]; !ok {
			t.Errorf("docs/simulator.md's table of flags has no row for --%s (latgate sim -h: %s)", name, fs.Lookup(name).Usage)
		}
	}
	for name, line := range rows {
		if fs.Lookup(name) == nil {
			t.Errorf("docs/simulator.md:%d names --%s, which latgate sim does not have (its flags: %s)", line, name, strings.Join(flags, ", "))
		}
	}
}

// TestSimDocFlagTable: what flagTable reads from a table, and what it
// refuses.
func TestSimDocFlagTable(t *testing.T) {
	t.Parallel()
	doc := "text\n\n| flag | sets |\n|---|---|\n| `--addr A` | x |\n| `--ttft 1ms`, `--itl 2ms --tls-key k` | a \\| b, not `--slots` |\n\n| other | table |\n|---|---|\n| `--no` | y |\n"
	rows, err := flagTable(doc)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for name, line := range rows {
		got = append(got, name+"@"+strconv.Itoa(line))
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "addr@5 itl@6 tls-key@6 ttft@6" {
		t.Errorf("rows: %v", got)
	}
	for _, bad := range []string{"no table\n", "| flag | sets |\n|---|---|\n| `--a` | x |\n| no flag | y |\n", "| flag | sets |\n|---|---|\n| `--a` | x |\n| `--a` | y |\n"} {
		if _, err := flagTable(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

var docFlag = regexp.MustCompile(`(?:^|[^\w-])--([a-z0-9][a-z0-9-]*)`)

// flagTable reads the Markdown table whose first header cell is "flag":
// each flag its rows' first cells name (`--name …`), with the row's line.
// A row that names no flag, a flag named twice and no such table are
// errors.
func flagTable(doc string) (map[string]int, error) {
	lines := strings.Split(doc, "\n")
	start := -1
	for i, l := range lines {
		if cells := strings.Split(l, "|"); len(cells) > 2 && strings.TrimSpace(cells[0]) == "" && strings.TrimSpace(cells[1]) == "flag" {
			start = i + 2 // past the header and its |---| line
			break
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("no table whose first column is \"flag\"")
	}
	rows := map[string]int{}
	for i := start; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
		first := strings.Split(lines[i], "|")[1]
		names := docFlag.FindAllStringSubmatch(first, -1)
		if names == nil {
			return nil, fmt.Errorf("line %d: a row of the table of flags names no flag: %s", i+1, lines[i])
		}
		for _, m := range names {
			if prev, ok := rows[m[1]]; ok {
				return nil, fmt.Errorf("line %d: --%s again (line %d)", i+1, m[1], prev)
			}
			rows[m[1]] = i + 1
		}
	}
	return rows, nil
}
