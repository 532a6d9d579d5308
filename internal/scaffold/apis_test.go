package scaffold

// init writes a suite for each API whose key it finds: the APIs are
// registered by package probe's files (the program links probe through
// gate).
import _ "github.com/latgate/latgate/probe"
