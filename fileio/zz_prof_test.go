package fileio

import (
	"flag"
	"os"
	"testing"
)

var profFile = flag.String("prof-file", "", "")
var profReader = flag.String("prof-reader", "Read", "")

func TestZZProf(t *testing.T) {
	if *profFile == "" {
		t.Skip()
	}
	for range 3 {
		if *profReader == "Read" {
			_, err := Read(*profFile)
			t.Log(err)
		} else {
			_, _, err := Stream(*profFile, func() nothing { return nothing{} })
			t.Log(err)
		}
	}
	_ = os.Stderr
}
