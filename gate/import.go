package gate

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/latgate/latgate/fileio"
	"github.com/latgate/latgate/interop"
	"github.com/latgate/latgate/results"
)

// ImportOptions are the arguments of latgate import.
type ImportOptions struct {
	From   string   // vllm, aiperf or guidellm
	Files  []string // the tool's output files
	Out    string   // the results file to write
	Region string   // region label recorded in the results
	// Now is the import's time (nil: the clock).
	Now func() time.Time
}

// Import reads other tools' per-request output (package interop) and
// writes it as a results file that compare, publish and the Action gate
// like latgate's own. Unreadable, refused or invalid files are bad input;
// a failed write could not run.
func Import(env Env, o ImportOptions) (*results.File, error) {
	tool, err := interop.ParseTool(o.From)
	if err != nil {
		return nil, AsBadInput(err)
	}
	if len(o.Files) == 0 {
		return nil, BadInputf("import: give the %s files to import", tool)
	}
	if o.Out == "" {
		return nil, BadInputf("import: give the results file to write (-o results.json)")
	}
	if err := fileio.WritableDir(o.Out); err != nil {
		return nil, BadInputf("-o: %v", err)
	}
	var inputs []interop.Input
	for _, p := range o.Files {
		b, err := readImported(p)
		if err != nil {
			return nil, AsBadInput(err)
		}
		dir := filepath.Dir(p)
		inputs = append(inputs, interop.Input{Name: p, Data: b, Sibling: func(base string) ([]byte, error) {
			return fileio.ReadLimited(filepath.Join(dir, base), fileio.MaxFileSize)
		}})
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	f, err := interop.Import(tool, inputs, interop.Options{Source: GitSource(env.Getenv, o.Region), ToolVersion: env.ToolVersion, Now: now()})
	if err != nil {
		return nil, AsBadInput(err)
	}
	if err := fileio.Write(o.Out, f); err != nil {
		return nil, AsCannotRun(err)
	}
	return f, nil
}

// readImported reads one input file, bounded like a results file; errors
// name the file and the reason.
func readImported(path string) ([]byte, error) {
	b, err := fileio.ReadLimited(path, fileio.MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, fileio.PathCause(err))
	}
	return b, nil
}
