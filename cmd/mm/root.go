package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/mm-agent/mm/frontend"
	"github.com/mm-agent/mm/frontend/tui"
	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/mmconfigs"
	"github.com/mm-agent/mm/orchestrator"
)

// flags are the root command's flags.
type flags struct {
	print          bool
	ask            string
	askWithContext string
	acp            bool
	tui            bool
	config         string
	model          string
	yolo           bool
	version        bool
	outputFormat   string
}

// exitCode carries a command's exit status through cobra.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// run runs mm under ctx, which a signal that ends mm cancels; end hears
// the signals.
func run(ctx context.Context, end *ending, args []string) int {
	var f flags
	root := &cobra.Command{
		Use:   "mm [-p question | --ask agent question | -acp | -tui]",
		Short: "mm — an agent CLI for local models, built around asking other agents",
		Long: `mm runs an agent for local models. Without flags it starts the line mode.
  mm -p "question"                 one turn; the answer on stdout
  mm --ask <agent> "question"      one hand-off to an agent of mmConfigs
  mm -acp                          an Agent Client Protocol agent over stdio
  mm -tui                          the full-screen window
  mm check                         validate a configuration and the agents it may ask
  mm init                          write a starter agent.yaml for a model of a local server`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.version {
				fmt.Fprintln(cmd.OutOrStdout(), versionLine())
				return nil
			}
			return exitCode(runRoot(cmd.Context(), end, f, args))
		},
	}
	pf := root.PersistentFlags()
	pf.StringVarP(&f.config, "config", "c", "", "configuration file (default $MM_CONFIG, else ./agent.yaml)")
	pf.StringVar(&f.model, "model", "", "model reference <provider>/<model>, overriding model:")
	pf.BoolVar(&f.yolo, "yolo", false, "run tool calls without asking for consent")
	fl := root.Flags()
	fl.BoolVarP(&f.print, "print", "p", false, "answer one question (the arguments, or stdin) and exit")
	fl.StringVar(&f.ask, "ask", "", "hand one question to the named agent and print its answer")
	fl.StringVar(&f.askWithContext, "ask-with-context", "", "like --ask, sending the conversation read from stdin")
	fl.BoolVar(&f.acp, "acp", false, "speak the Agent Client Protocol on stdin/stdout (for editors and parent agents)")
	fl.BoolVar(&f.tui, "tui", false, "the full-screen window")
	fl.StringVar(&f.outputFormat, "output-format", "text", "what -p and --ask write on stdout: text, json or stream-json")
	fl.BoolVar(&f.version, "version", false, "print mm's version (as mm version does)")
	root.AddCommand(checkCmd(&f), versionCmd(), hooksCmd(&f), initCmd(&f))
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see %s --help)", err, c.CommandPath())
	})

	root.SetArgs(normalizeArgs(args))
	err := root.ExecuteContext(ctx)
	var code exitCode
	switch {
	case errors.As(err, &code):
		return int(code)
	case err != nil:
		fmt.Fprintf(os.Stderr, "mm: %v\n", err)
		return 2
	}
	return 0
}

// loadConfig finds and loads the configuration; nil and false after printing
// the error.
func loadConfig(f *flags, cwd string) (*mmconfigs.Config, bool) {
	path := mmconfigs.Find(f.config, os.Getenv("MM_CONFIG"), cwd)
	if path == "" {
		return mmconfigs.Default(cwd, os.Getenv), true
	}
	c, err := mmconfigs.Load(path, cwd, os.Getenv)
	if err != nil {
		frontend.ReportError(os.Stderr, err)
		return nil, false
	}
	return c, true
}

func runRoot(ctx context.Context, end *ending, f flags, args []string) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mm: %v\n", err)
		return 1
	}
	modes := 0
	for _, on := range []bool{f.print, f.ask != "", f.askWithContext != "", f.acp, f.tui} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		fmt.Fprintln(os.Stderr, "mm: give one of -p, --ask, --ask-with-context, -acp, -tui")
		return 2
	}
	format, err := frontend.ParseOutputFormat(f.outputFormat)
	if err == nil && format != frontend.FormatText && !f.print && f.ask == "" && f.askWithContext == "" {
		err = fmt.Errorf("--output-format %s works with -p and --ask only", format)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "mm: %v\n", err)
		return 2
	}
	if f.acp {
		return runACP(ctx, f, cwd)
	}
	cfg, ok := loadConfig(&f, cwd)
	if !ok {
		return 1
	}
	session := func(askOnly bool) func(orchestrator.Sink) (*orchestrator.Session, error) {
		return func(sink orchestrator.Sink) (*orchestrator.Session, error) {
			return orchestrator.New(ctx, orchestrator.Options{
				Config: cfg, Cwd: cwd, Environ: os.Environ(), Model: f.model, Yolo: f.yolo,
				Sink: sink, NoModel: askOnly, Wasm: wasmRunner(cfg),
			})
		}
	}
	stdinTTY := term.IsTerminal(int(os.Stdin.Fd()))
	banner := func(s *orchestrator.Session) string {
		// The model the session runs, which --model may have given.
		shown := *cfg
		shown.Model = s.Model()
		return shown.Banner(version(), cwd, s.MCPBanner())
	}
	switch {
	case f.print:
		question := strings.Join(args, " ")
		if question == "" && !stdinTTY {
			b, err := readStdin()
			if err != nil {
				fmt.Fprintf(os.Stderr, "mm -p: read the question from stdin: %v\n", err)
				return 1
			}
			question = strings.TrimRight(string(b), "\n")
		}
		if strings.TrimSpace(question) == "" {
			fmt.Fprintln(os.Stderr, `mm -p: no question: give it as an argument (mm -p "…") or on stdin`)
			return 2
		}
		// One question: Ctrl-C ends mm.
		end.also(os.Interrupt)
		return frontend.Print(ctx, question, frontend.PrintOptions{
			Session: session(false), Stdout: os.Stdout, Stderr: os.Stderr,
			StdoutTerminal: term.IsTerminal(int(os.Stdout.Fd())),
			DisplayHooks:   cfg.DisplayHooks, DisplayCommands: cfg.DisplayCommands,
			Format: format,
		})
	case f.ask != "" || f.askWithContext != "":
		name, withContext, transcript := f.ask, false, ""
		if f.askWithContext != "" {
			name, withContext = f.askWithContext, true
			b, err := readStdin()
			if err != nil {
				fmt.Fprintf(os.Stderr, "[ask: read the conversation from stdin: %v]\n", err)
				return 1
			}
			transcript = strings.TrimRight(string(b), "\n")
		}
		question := strings.Join(args, " ")
		if strings.TrimSpace(question) == "" {
			fmt.Fprintf(os.Stderr, "[ask: no question: mm --ask %s \"<question>\"]\n", name)
			return 2
		}
		opts := frontend.AskOptions{
			Session: session(true), Agent: name, WithContext: withContext, Transcript: transcript,
			Stdout: os.Stdout, Stderr: os.Stderr, StdoutTerminal: term.IsTerminal(int(os.Stdout.Fd())),
			Format: format,
		}
		if stdinTTY && !withContext {
			opts.Consent = frontend.TerminalConsent(os.Stdin, os.Stderr)
		}
		end.also(os.Interrupt)
		return frontend.Ask(ctx, question, opts)
	case f.tui:
		if len(args) > 0 {
			fmt.Fprintf(os.Stderr, "mm -tui: unexpected arguments %q: type the question in the window\n", strings.Join(args, " "))
			return 2
		}
		return tui.Run(ctx, tui.Options{
			Session: session(false), Banner: banner,
			Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
			DisplayHooks: cfg.DisplayHooks, DisplayCommands: cfg.DisplayCommands,
		})
	}
	if len(args) > 0 {
		fmt.Fprintf(os.Stderr, "mm: unexpected arguments %q: use mm -p \"<question>\" for one question\n", strings.Join(args, " "))
		return 2
	}
	hist := ""
	if stdinTTY {
		hist = historyFile(os.Stderr)
	}
	stdin, closeStdin := lineInput(ctx)
	defer closeStdin()
	return frontend.Line(ctx, frontend.LineOptions{
		Session: session(false), Banner: banner,
		Stdin: stdin, Stdout: os.Stdout, Stderr: os.Stderr, Terminal: stdinTTY,
		HistoryFile:  hist,
		DisplayHooks: cfg.DisplayHooks, DisplayCommands: cfg.DisplayCommands,
	})
}

// historyFile is where the line mode keeps its history: mm/history in the
// user's cache folder, a folder only its owner may enter (0700, made so if
// an older mm or another program left it open); "" for none, the reason
// said on stderr. The file is frontend.HistoryMode.
func historyFile(stderr io.Writer) string {
	dir, err := os.UserCacheDir()
	if err == nil {
		dir = filepath.Join(dir, "mm")
		err = privateDir(dir)
	}
	if err != nil {
		fmt.Fprintf(stderr, "mm: no line history: %v\n", err)
		return ""
	}
	path := filepath.Join(dir, "history")
	if err := privateFile(path); err != nil {
		fmt.Fprintf(stderr, "mm: no line history: %s: %v\n", path, err)
		return ""
	}
	return path
}

// privateFile creates path with frontend.HistoryMode, or gives an existing
// file that mode; a path that is not a regular file is refused.
func privateFile(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, frontend.HistoryMode)
		if err != nil {
			return err
		}
		return f.Close()
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Mode().Perm() != frontend.HistoryMode:
		return os.Chmod(path, frontend.HistoryMode)
	}
	return nil
}

// privateDir creates dir with mode 0700, or gives an existing folder that
// mode.
func privateDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a folder", dir)
	case fi.Mode().Perm() != 0o700:
		return os.Chmod(dir, 0o700)
	}
	return nil
}

// readStdin reads a question or a conversation from stdin, up to what one
// message to an agent can carry: more could never be sent, and /dev/zero
// must not fill the memory.
func readStdin() ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(os.Stdin, acpconn.MaxMessage+1))
	if err == nil && len(b) > acpconn.MaxMessage {
		err = fmt.Errorf("over %s, the limit of one message to an agent: send less", regularfile.FormatSize(acpconn.MaxMessage))
	}
	return b, err
}
