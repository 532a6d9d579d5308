// Command tinygguf writes the test model of internal/tinygguf:
//
//	go run ./internal/cmd/tinygguf -o tiny.gguf [-hidden 512 -layers 4 -heads 8 -ffn 1408]
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/latgate/latgate/internal/tinygguf"
)

func main() {
	c := tinygguf.Small
	out := flag.String("o", "tiny.gguf", "output file")
	flag.IntVar(&c.Hidden, "hidden", c.Hidden, "embedding length")
	flag.IntVar(&c.Layers, "layers", c.Layers, "blocks")
	flag.IntVar(&c.Heads, "heads", c.Heads, "attention heads")
	flag.IntVar(&c.FFN, "ffn", c.FFN, "feed-forward length")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "weights seed")
	flag.Parse()
	if err := write(*out, c); err != nil {
		fmt.Fprintln(os.Stderr, "tinygguf:", err)
		os.Exit(1)
	}
	fmt.Printf("tinygguf: wrote %s (%d parameters)\n", *out, c.Params())
}

func write(path string, c tinygguf.Config) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tinygguf-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tinygguf.Write(tmp, c); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
