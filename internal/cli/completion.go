package cli

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// shellCommand is one command as the shells complete it.
type shellCommand struct {
	Name  string
	About string // one line, for the shells that show descriptions
	Flags []shellFlag
	// Files: the command takes file arguments; Words: the arguments it
	// takes instead.
	Files bool
	Words []string
}

// shellFlag is one flag of a command, without its dashes.
type shellFlag struct {
	Name  string
	About string
	Bool  bool // takes no value
	File  bool // its value is a file or folder name
	// Values are the values the flag takes (Choices); nil: any, such as a
	// file name, completed as one.
	Values []string
}

// shellCommands is the table as the shells complete it: each command's
// flags, read from its flag set, with the values of those that take one
// of a few (Choices).
func (t *Table[E]) shellCommands() []shellCommand {
	var out []shellCommand
	for _, c := range t.Commands {
		sc := shellCommand{Name: c.Name, About: strings.Split(c.About, "\n")[0], Files: c.Args == FileArgs, Words: c.Words}
		if c.Args == CommandArgs {
			for _, o := range t.Commands {
				sc.Words = append(sc.Words, o.Name)
			}
		}
		fs, _ := t.flagSet(c)
		fs.VisitAll(func(f *flag.Flag) {
			_, usage := flag.UnquoteUsage(f)
			fl := shellFlag{Name: f.Name, About: gist(usage), File: isPath(f)}
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				fl.Bool = true
			}
			if ch, ok := f.Value.(Choices); ok {
				fl.Values = ch.Choices()
			}
			sc.Flags = append(sc.Flags, fl)
		})
		out = append(out, sc)
	}
	return out
}

// dashed is how the flag is typed: -c, --config.
func (f shellFlag) dashed() string { return dashes(f.Name) }

// dashes is how a flag of that name is typed: -c, --config.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// Shells are the shells Completion writes a script for.
var Shells = []string{"bash", "zsh", "fish"}

// Completion is the table's completion script for a shell (one of Shells).
func (t *Table[E]) Completion(shell string) (string, error) {
	cmds := t.shellCommands()
	switch shell {
	case "bash":
		return bash(t.Program, cmds), nil
	case "zsh":
		return zsh(t.Program, cmds), nil
	case "fish":
		return fish(t.Program, cmds), nil
	}
	return "", fmt.Errorf("want %s, got %q", OrList(Shells), shell)
}

func names(cmds []shellCommand) string {
	var n []string
	for _, c := range cmds {
		n = append(n, c.Name)
	}
	return strings.Join(n, " ")
}

// flagWords are a command's flags as typed, sorted.
func flagWords(c shellCommand) string {
	var out []string
	for _, f := range c.Flags {
		out = append(out, f.dashed())
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// casePattern matches both ways Go's flag package reads a flag: -name and
// --name.
func casePattern(f shellFlag) string { return "-" + f.Name + "|--" + f.Name }

// valueCases completes the value of the flag before the cursor ($prev): one
// of its words (choices writes the command), a file name (files) or
// anything (other); "" when the command's flags take no value.
func valueCases(c shellCommand, choices func([]string) string, files, other string) string {
	var arms, file, plain []string
	for _, f := range c.Flags {
		switch {
		case f.Values != nil:
			arms = append(arms, casePattern(f)+") "+choices(f.Values))
		case f.Bool:
		case f.File:
			file = append(file, casePattern(f))
		default:
			plain = append(plain, casePattern(f))
		}
	}
	if len(file) > 0 {
		arms = append(arms, strings.Join(file, "|")+") "+files)
	}
	if len(plain) > 0 {
		arms = append(arms, strings.Join(plain, "|")+") "+other)
	}
	if len(arms) == 0 {
		return ""
	}
	return "      case $prev in\n        " + strings.Join(arms, "; return ;;\n        ") + "; return ;;\n      esac\n"
}

// bash is the bash completion script: commands, then each command's
// flags, the values of a flag that has a fixed set (--format), file names
// for a flag's value or a command's files, and a command's words.
func bash(prog string, cmds []shellCommand) string {
	var b strings.Builder
	b.WriteString(`# bash completion for {{P}}: source <({{P}} completion bash)
_{{P}}() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  # --format=te: bash splits the word at the "=".
  if [[ $cur == "=" ]]; then cur=""; elif [[ $prev == "=" ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
  COMPREPLY=()
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "` + names(cmds) + `" -- "$cur"))
    return
  fi
  case ${COMP_WORDS[1]} in
`)
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s)\n", c.Name)
		// A file name is complete -o default's; no other value is.
		b.WriteString(valueCases(c, func(v []string) string { return `COMPREPLY=($(compgen -W "` + strings.Join(v, " ") + `" -- "$cur"))` },
			":", "compopt +o default 2>/dev/null"))
		switch {
		case c.Files:
			fmt.Fprintf(&b, "      [[ $cur == -* ]] && COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", flagWords(c))
		default:
			fmt.Fprintf(&b, "      COMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", strings.TrimSpace(flagWords(c)+" "+strings.Join(c.Words, " ")))
		}
		b.WriteString("      ;;\n")
	}
	b.WriteString("  esac\n}\ncomplete -o default -F _{{P}} {{P}}\n")
	return named(b.String(), prog)
}

// zsh is the zsh completion script; it completes as bash does.
func zsh(prog string, cmds []shellCommand) string {
	var b strings.Builder
	b.WriteString(`#compdef {{P}}
# zsh completion for {{P}}: {{P}} completion zsh > "${fpath[1]}/_{{P}}" (or source it after compinit)
_{{P}}() {
  local cur=${words[CURRENT]} prev=${words[CURRENT-1]}
  if (( CURRENT == 2 )); then compadd -- ` + names(cmds) + `; return; fi
  case ${words[2]} in
`)
	for _, c := range cmds {
		fmt.Fprintf(&b, "    %s)\n", c.Name)
		b.WriteString(valueCases(c, func(v []string) string { return "compadd -- " + strings.Join(v, " ") }, "_files", ":"))
		flags := flagWords(c)
		switch {
		case c.Files:
			fmt.Fprintf(&b, "      if [[ $cur == -* ]]; then compadd -- %s; else _files; fi\n", flags)
		case flags != "" || len(c.Words) > 0:
			fmt.Fprintf(&b, "      compadd -- %s\n", strings.TrimSpace(flags+" "+strings.Join(c.Words, " ")))
		default:
			b.WriteString("      :\n")
		}
		b.WriteString("      ;;\n")
	}
	b.WriteString(`  esac
}
# Loaded from fpath the file is _{{P}}'s body: complete now. Sourced:
# register the function.
if [[ ${funcstack[1]} == _{{P}} ]]; then _{{P}} "$@"; else compdef _{{P}} {{P}}; fi
`)
	return named(b.String(), prog)
}

// fishQuote quotes a word for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// fish is the fish completion script; it completes as bash does, with the
// commands' and flags' descriptions.
func fish(prog string, cmds []shellCommand) string {
	var b strings.Builder
	b.WriteString("# fish completion for {{P}}: {{P}} completion fish > ~/.config/fish/completions/{{P}}.fish\n")
	b.WriteString("complete -c {{P}} -f\n")
	for _, c := range cmds {
		fmt.Fprintf(&b, "complete -c {{P}} -n __fish_use_subcommand -a %s -d %s\n", c.Name, fishQuote(c.About))
		when := fishQuote("__fish_seen_subcommand_from " + c.Name)
		for _, f := range c.Flags {
			opt := "-l " + f.Name
			if len(f.Name) == 1 {
				opt = "-s " + f.Name
			}
			switch {
			case f.Values != nil:
				opt += " -x -a " + fishQuote(strings.Join(f.Values, " "))
			case f.File:
				opt += " -r -F"
			case !f.Bool:
				opt += " -x"
			}
			fmt.Fprintf(&b, "complete -c {{P}} -n %s %s -d %s\n", when, opt, fishQuote(f.About))
		}
		if c.Files {
			fmt.Fprintf(&b, "complete -c {{P}} -n %s -F\n", when)
		}
		if len(c.Words) > 0 {
			fmt.Fprintf(&b, "complete -c {{P}} -n %s -a %s\n", when, fishQuote(strings.Join(c.Words, " ")))
		}
	}
	return named(b.String(), prog)
}

// named puts the program's name in a script's {{P}}.
func named(script, prog string) string { return strings.ReplaceAll(script, "{{P}}", prog) }

// gist is a flag's help up to its first aside, for a description.
func gist(usage string) string {
	if i := strings.IndexAny(usage, "(;"); i > 0 {
		usage = usage[:i]
	}
	if r := []rune(strings.TrimSpace(usage)); len(r) > 70 {
		return string(r[:69]) + "…"
	}
	return strings.TrimSpace(usage)
}

// isPath reports whether a flag's value names a file or a folder: its
// value's name in the help (`file`, `folder`) says so, or, when the help
// names none, its words do.
func isPath(f *flag.Flag) bool {
	name, usage := flag.UnquoteUsage(f)
	if strings.Contains(f.Usage, "`") {
		usage = name
	}
	return strings.Contains(usage, "file") || strings.Contains(usage, "folder")
}
