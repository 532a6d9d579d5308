package main

import (
	"os"
	"testing"
)

// TestNewcomerCheck: latgate check on init's suite against the simulator
// says ok with what it saw; the same suite with the /v1 dropped from
// base_url (the mistake teams make most) gets the finding and its fix from
// check (exit 3), and run stops at its first request with the same words,
// writing nothing; a read-only results folder is refused before any
// request (exit 2). Virtual time.
func TestNewcomerCheck(t *testing.T) {
	if _, err := os.Stat("/sys"); err != nil {
		t.Skip("no /sys: no read-only folder to try")
	}
	tr := newcomer(t)
	tr.bubble(func(t *testing.T) {
		tr.run("init")
		s := simAtInitsURL(t, tr, "realistic")
		tr.note("latgate sim is serving at init's address")
		tr.run("check")
		good, err := os.ReadFile("latgate.yaml")
		if err != nil {
			t.Fatal(err)
		}
		tr.note("base_url without its /v1")
		editFile(t, "latgate.yaml", "/v1\n", "\n")
		tr.run("check")
		tr.run("run")
		tr.note("the folder holds: %v", files(t, "."))
		tr.note("base_url with its /v1 again, and a results file in a read-only folder")
		writeFile(t, "latgate.yaml", string(good))
		sent := s.Requests()
		tr.run("run", "-o", "/sys/results.json")
		tr.note("the run sent %d requests", s.Requests()-sent)
	})
	tr.check("check.txt")
}
