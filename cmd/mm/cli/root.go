package cli

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

	"github.com/mm-agent/mm/internal/acpconn"
	"github.com/mm-agent/mm/internal/frontend"
	"github.com/mm-agent/mm/internal/frontend/line"
	"github.com/mm-agent/mm/internal/frontend/tui"
	"github.com/mm-agent/mm/internal/hooks"
	"github.com/mm-agent/mm/internal/mmconfigs"
	"github.com/mm-agent/mm/internal/orchestrator"
	"github.com/mm-agent/mm/internal/regularfile"
	"github.com/mm-agent/mm/internal/tools/mcptools"
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
	// sandbox and network are --sandbox and --network: "" when not given.
	sandbox, network string
	version          bool
	outputFormat     string
	// cont, resume and noSave are --continue, --resume and --no-save;
	// resuming says --resume was given, even as "": an empty id is refused
	// as a blank one is, never taken for a new session.
	cont     bool
	resume   string
	resuming bool
	noSave   bool

	// chain is where this mm is in a chain of asks, when the asking mm
	// could not pass it in the environment (over ssh): hidden flags.
	chain chainFlags
	// habits are -C, the system prompt's flags, --max-turns, --verbose.
	habits habitFlags
}

// chainFlags are the hidden flags an mm asked over ssh is started with:
// what MM_ASKED_DEPTH, MM_ASK_MAX_DEPTH and MM_ASK_CHAIN say to an mm
// started on the same machine, and the folder its sessions work in.
type chainFlags struct {
	askedDepth, askMaxDepth, askChain, sessionCwd string
	// sandboxCeiling is MM_SANDBOX_CEILING: the asker's sandbox.
	sandboxCeiling string
}

// exitCode carries a command's exit status through cobra.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

// runWith runs mm with the streams, environment and working directory of
// s; end is nil in a test, where no signal ends mm.
func runWith(ctx context.Context, end *ending, s *streams, args []string) int {
	f := flags{}
	root := &cobra.Command{
		Use:   "mm [-p question | --ask agent question | -acp | -tui]",
		Short: "mm — an agent CLI for local models, built around asking other agents",
		Long: `mm runs an agent for local models. Without flags it starts the line mode.
  mm -p "question"                 one turn; the answer on stdout
  mm --ask <agent> "question"      one hand-off to an agent of mmConfigs
  mm -acp                          an Agent Client Protocol agent over stdio
  mm -tui                          the full-screen window
  mm check                         validate a configuration and the agents it may ask
  mm init                          write a starter agent.yaml for a model of a local server
  mm serve --a2a host:port         serve the configuration as an A2A agent
  mm sessions                      list the saved sessions; mm --continue, --resume <id> go on with one`,
		Args:          cobra.ArbitraryArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.version {
				fmt.Fprintln(cmd.OutOrStdout(), versionLine())
				return nil
			}
			f.resuming = cmd.Flags().Changed("resume")
			return exitCode(runRoot(cmd.Context(), end, s, f, args))
		},
	}
	pf := root.PersistentFlags()
	pf.StringVarP(&f.config, "config", "c", "", "configuration file (default $MM_CONFIG, else ./agent.yaml)")
	pf.StringVar(&f.model, "model", "", "model reference <provider>/<model>, overriding model:")
	pf.BoolVar(&f.yolo, "yolo", false, "run tool calls without asking for consent")
	pf.StringVar(&f.sandbox, "sandbox", "", "what the tools may write: off, workspace or read-only (as sandbox:; default workspace)")
	pf.StringVar(&f.network, "network", "", "whether the tools' commands may use TCP: on or off (as sandbox.network:; default on)")
	addHabitFlags(root, &f.habits)
	fl := root.Flags()
	fl.BoolVarP(&f.print, "print", "p", false, "answer one question (the arguments, or stdin) and exit")
	fl.StringVar(&f.ask, "ask", "", "hand one question to the named agent and print its answer")
	fl.StringVar(&f.askWithContext, "ask-with-context", "", "like --ask, sending the conversation read from stdin")
	fl.BoolVar(&f.acp, "acp", false, "speak the Agent Client Protocol on stdin/stdout (for editors and parent agents)")
	fl.BoolVar(&f.tui, "tui", false, "the full-screen window")
	fl.StringVar(&f.outputFormat, "output-format", "text", "what -p and --ask write on stdout: text, json or stream-json")
	fl.BoolVar(&f.version, "version", false, "print mm's version (as mm version does)")
	fl.BoolVar(&f.cont, "continue", false, "go on with the session you last used in this folder")
	fl.StringVar(&f.resume, "resume", "", "go on with the saved session `id` (a unique start of it is enough; mm sessions lists them)")
	fl.BoolVar(&f.noSave, "no-save", false, "do not save this session (as persist: false)")
	for _, h := range []struct {
		p          *string
		name, help string
	}{
		{&f.chain.askedDepth, "asked-depth", "this agent's depth in a chain of asks (MM_ASKED_DEPTH)"},
		{&f.chain.askMaxDepth, "ask-max-depth", "the chain's limit (MM_ASK_MAX_DEPTH)"},
		{&f.chain.askChain, "ask-chain", "the chain of agents that asked this one (MM_ASK_CHAIN)"},
		{&f.chain.sessionCwd, "session-cwd", "with -acp: every session's folder, whatever session/new says"},
		{&f.chain.sandboxCeiling, "sandbox-ceiling", "the loosest sandbox this agent may run under: its asker's (MM_SANDBOX_CEILING)"},
	} {
		fl.StringVar(h.p, h.name, "", h.help)
		_ = fl.MarkHidden(h.name) // for an mm that asks over ssh, not for people
	}
	// The subcommands start what a signal must stop once the signals are
	// watched; the root command waits where its modes start (runRoot).
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if err := f.habits.check(cmd.Flags().Changed); err != nil {
			return fmt.Errorf("%w (see %s --help)", err, cmd.CommandPath())
		}
		if err := f.habits.chdir(s); err != nil {
			return err
		}
		if cmd != root {
			end.wait()
			// The root command checks its flags with its modes (validate).
			if _, err := (*mmconfigs.Config)(nil).SandboxSpec(f.sandbox, f.network); err != nil {
				return fmt.Errorf("%w (see %s --help)", err, cmd.CommandPath())
			}
		}
		return nil
	}
	root.AddCommand(checkCmd(&f, s), versionCmd(), hooksCmd(&f, s), initCmd(&f, s), serveCmd(&f, s, end), sessionsCmd(s))
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see %s --help)", err, c.CommandPath())
	})
	root.SetIn(s.In)
	root.SetOut(s.Out)
	root.SetErr(s.ErrOut)

	root.SetArgs(normalizeArgs(args))
	ctx, flush := traced(ctx, s)
	defer flush()
	err := root.ExecuteContext(ctx)
	var code exitCode
	switch {
	case errors.As(err, &code):
		return int(code)
	case err != nil:
		fmt.Fprintf(root.ErrOrStderr(), "mm: %v\n", err)
		return 2
	}
	return 0
}

// configPath is the configuration file the flags and $MM_CONFIG name, or
// ./agent.yaml, or the person's own; "" for none.
func configPath(f *flags, s *streams, cwd string) string {
	return mmconfigs.Find(f.config, s.Getenv("MM_CONFIG"), cwd, s.Getenv)
}

// loadConfig finds and loads the configuration and compiles its JSON
// Schemas; nil and false after printing the error.
func loadConfig(f *flags, s *streams, cwd string) (*mmconfigs.Config, bool) {
	c, err := readConfig(f, s, cwd)
	if err != nil {
		frontend.ReportError(s.ErrOut, err)
		return nil, false
	}
	return c, true
}

// readConfig is loadConfig leaving the error to the caller.
func readConfig(f *flags, s *streams, cwd string) (*mmconfigs.Config, error) {
	path := configPath(f, s, cwd)
	if path == "" {
		c := mmconfigs.Default(cwd, s.Getenv)
		return c, f.habits.applySystem(c, cwd)
	}
	c, err := mmconfigs.Load(path, cwd, s.Getenv)
	if err == nil {
		err = compileSchemas(c)
	}
	if err == nil {
		err = f.habits.applySystem(c, cwd)
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

// sessionOptions are the options every session mm starts from its command
// line shares: the environment its processes inherit (the session adds
// MM_BIN and MM_CONFIG), --model, --yolo, --sandbox and --network. cfg may be nil, for sessions
// that each load their own (mm -acp without a configuration).
func sessionOptions(f *flags, s *streams, cfg *mmconfigs.Config, cwd string) orchestrator.Options {
	return orchestrator.Options{Config: cfg, Cwd: cwd, Environ: s.Environ(), Model: f.model, Yolo: f.yolo,
		Sandbox: f.sandbox, Network: f.network, StartMCP: mcptools.Start, ConnectA2A: connectA2A,
		MaxTurns: f.habits.maxTurns, Verbose: f.habits.trace(s)}
}

// validate is the output format the flags give, or a usage error: two
// modes at once, or a format for a mode that writes none.
func (f *flags) validate() (line.OutputFormat, error) {
	modes := 0
	for _, on := range []bool{f.print, f.ask != "", f.askWithContext != "", f.acp, f.tui} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return "", errors.New("give one of -p, --ask, --ask-with-context, -acp, -tui")
	}
	switch {
	case f.cont && f.resuming:
		return "", errors.New("give one of --continue and --resume")
	case (f.cont || f.resuming) && f.acp:
		return "", errResumeACP
	}
	if _, err := (*mmconfigs.Config)(nil).SandboxSpec(f.sandbox, f.network); err != nil {
		return "", err
	}
	format, err := line.ParseOutputFormat(f.outputFormat)
	if err == nil && format != line.FormatText && !f.print && f.ask == "" && f.askWithContext == "" {
		err = fmt.Errorf("--output-format %s works with -p and --ask only", format)
	}
	return format, err
}

// runRoot runs the mode the flags choose: -acp, -p, --ask, -tui, else the
// line mode.
//
// A command line mm cannot read is a usage error on stderr, whatever the
// output format; once it is read, -p and --ask with a JSON one report
// every failure as the result (failed).
func runRoot(ctx context.Context, end *ending, s *streams, f flags, args []string) int {
	format, err := f.validate()
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm: %v\n", err)
		return 2
	}
	cwd, err := s.Getwd()
	if err != nil {
		return f.failed(s, format, 1, err, frontend.ReportError)
	}
	if s, err = f.chain.apply(s, cwd, f.acp); err != nil {
		fmt.Fprintf(s.ErrOut, "mm: %v\n", err)
		return 2
	}
	if f.acp {
		end.wait()
		return runACP(ctx, s, f, cwd)
	}
	cfg, err := readConfig(&f, s, cwd)
	if err != nil {
		return f.failed(s, format, 1, err, frontend.ReportError)
	}
	// While the session is built: what the first command hook needs.
	hooks.Prepare(&cfg.Hooks)
	end.wait()
	model := sessionOptions(&f, s, cfg, cwd).Running().Model
	st, resumed, notice, err := newStore(&f, s, cfg.Abs, model, cwd, cfg.Persist)
	if err != nil {
		return f.failed(s, format, 1, err, frontend.ReportError)
	}
	defer func() {
		if err := st.close(); err != nil {
			fmt.Fprintf(s.ErrOut, "mm: %v\n", err)
		}
	}()
	m := &mode{ctx: ctx, end: end, s: s, f: f, cfg: cfg, cwd: cwd, format: format, store: st, resumed: resumed, resumeNotice: notice}
	switch {
	case f.print:
		return m.runPrint(args)
	case f.ask != "" || f.askWithContext != "":
		return m.runAsk(args)
	case f.tui:
		return m.runTUI(args)
	}
	return m.runLine(args)
}

// failed ends the run on err, with exit code code, before its session
// started: -p and --ask with a JSON output format write the result on
// stdout, stderr staying empty; otherwise report says err on stderr.
func (f *flags) failed(s *streams, format line.OutputFormat, code int, err error, report func(io.Writer, error)) int {
	if format == line.FormatText {
		report(s.ErrOut, err)
		return code
	}
	mode := line.ModeAsk
	if f.print {
		mode = line.ModePrint
	}
	line.Failed(s.Out, format, mode, err, code)
	return code
}

// reportAs is a report for failed: err written in format, then a newline.
func reportAs(format string) func(io.Writer, error) {
	return func(w io.Writer, err error) { fmt.Fprintf(w, format+"\n", err) }
}

// mode is what every mode but -acp runs with: one configuration, loaded
// from the working directory.
type mode struct {
	ctx    context.Context
	end    *ending
	s      *streams
	f      flags
	cfg    *mmconfigs.Config
	cwd    string
	format line.OutputFormat
	// store saves the session; resumed is the saved one it goes on with
	// (nil: a new one), resumeNotice the line that tells so.
	store        *store
	resumed      *orchestrator.Resumed
	resumeNotice string
}

// session starts the session of the mode; askOnly for one that only hands
// off (mm --ask), which needs no model.
func (m *mode) session(askOnly bool) func(orchestrator.Sink) (*orchestrator.Session, error) {
	return func(sink orchestrator.Sink) (*orchestrator.Session, error) {
		opts := sessionOptions(&m.f, m.s, m.cfg, m.cwd)
		opts.Sink, opts.NoModel = sink, askOnly
		withWasm(&opts, wasmRuntime(m.cfg))
		opts.Recorder, opts.Resume, opts.Store = m.store.recorder(), m.resumed, m.store
		return orchestrator.New(m.ctx, opts)
	}
}

// banner is the line mode's and the window's first lines: what the
// session runs, --model and --yolo included.
func (m *mode) banner(s *orchestrator.Session) string {
	return bannerLine(m.cfg, m.cwd, s.Running(), s.MCPBanner(), s.SkillsBanner())
}

// bannerLine is c's banner as every front end and mm check show it: made
// visible on one line, since a model id (a server's, written by mm init),
// a path or a name may hold a line break or an escape.
func bannerLine(c *mmconfigs.Config, cwd string, run mmconfigs.Running, extra ...string) string {
	return frontend.VisibleLine(c.Banner(version(), cwd, run, extra...))
}

// lineBanner is the line mode's first lines: the banner, then what was
// resumed.
func (m *mode) lineBanner(s *orchestrator.Session) string {
	if m.resumeNotice != "" {
		return m.banner(s) + "\n" + m.resumeNotice
	}
	return m.banner(s)
}

// withResumeNotice is the window's session: what was resumed is said in its
// transcript, the banner being one row.
func (m *mode) withResumeNotice(start func(orchestrator.Sink) (*orchestrator.Session, error)) func(orchestrator.Sink) (*orchestrator.Session, error) {
	return func(sink orchestrator.Sink) (*orchestrator.Session, error) {
		s, err := start(sink)
		if err == nil && m.resumeNotice != "" {
			for _, l := range strings.Split(m.resumeNotice, "\n") {
				sink.Emit(orchestrator.Notice{Kind: orchestrator.NoticeInfo, Text: l})
			}
		}
		return s, err
	}
}

// printResumeNotice tells on stderr what -p and --ask resumed; with a JSON
// output format the notices of the output say it, and stderr stays empty.
func (m *mode) printResumeNotice() {
	if m.resumeNotice != "" && m.format == line.FormatText {
		fmt.Fprintln(m.s.ErrOut, m.resumeNotice)
	}
}

// failed is flags.failed for the mode's streams and format.
func (m *mode) failed(code int, err error, report func(io.Writer, error)) int {
	return m.f.failed(m.s, m.format, code, err, report)
}

// runInfo is what -p's and --ask's JSON output says of the run.
func (m *mode) runInfo() line.RunInfo {
	return line.RunInfo{Session: m.store.id, Version: version(), Cwd: m.cwd, ResumeNotice: m.resumeNotice}
}

// oneQuestion makes Ctrl-C end the one turn of the modes that answer one
// question, and mm once its postGeneration and postAsk hooks have run (see
// ending.interrupts): the session and its turn run under m.ctx.
func (m *mode) oneQuestion() {
	if m.end != nil {
		m.ctx = m.end.interrupts(m.ctx, m.cfg.Hooks.AfterCancel())
	}
}

// runPrint is mm -p: one turn on the question of the arguments, or of stdin.
func (m *mode) runPrint(args []string) int {
	s := m.s
	question := strings.Join(args, " ")
	if question == "" && !s.InTerminal {
		b, err := readStdin(s.In)
		if err != nil {
			return m.failed(1, fmt.Errorf("read the question from stdin: %w", err), reportAs("mm -p: %v"))
		}
		question = strings.TrimRight(string(b), "\n")
	}
	if strings.TrimSpace(question) == "" {
		return m.failed(2, errors.New(`no question: give it as an argument (mm -p "…") or on stdin`), reportAs("mm -p: %v"))
	}
	m.oneQuestion()
	m.printResumeNotice()
	// A structuredOutput agent's stdout is its JSON alone: no ⚙ block
	// (hooks reference, Display).
	structured := m.cfg.StructuredOutput != nil
	return line.Print(m.ctx, question, line.PrintOptions{
		Session: m.session(false), Stdout: s.Out, Stderr: s.ErrOut,
		StdoutTerminal: s.OutTerminal,
		DisplayHooks:   m.cfg.DisplayHooks && !structured, DisplayCommands: m.cfg.DisplayCommands && !structured,
		Format: m.format, Info: m.runInfo(),
	})
}

// runAsk is mm --ask and --ask-with-context: one hand-off to an agent of
// mmConfigs.
func (m *mode) runAsk(args []string) int {
	s := m.s
	name, withContext, transcript := m.f.ask, false, ""
	if m.f.askWithContext != "" {
		name, withContext = m.f.askWithContext, true
		b, err := readStdin(s.In)
		if err != nil {
			return m.failed(1, fmt.Errorf("read the conversation from stdin: %w", err), reportAs("[ask: %v]"))
		}
		transcript = strings.TrimRight(string(b), "\n")
	}
	question := strings.Join(args, " ")
	if strings.TrimSpace(question) == "" {
		return m.failed(2, fmt.Errorf("no question: mm --ask %s \"<question>\"", name), reportAs("[ask: %v]"))
	}
	opts := line.AskOptions{
		Session: m.session(true), Agent: name, WithContext: withContext, Transcript: transcript,
		Stdout: s.Out, Stderr: s.ErrOut, StdoutTerminal: s.OutTerminal,
		Format: m.format, Info: m.runInfo(),
	}
	if s.InTerminal && !withContext {
		opts.Consent = line.TerminalConsent(s.In, s.ErrOut)
	}
	m.oneQuestion()
	m.printResumeNotice()
	return line.Ask(m.ctx, question, opts)
}

// runTUI is mm -tui: the full-screen window.
func (m *mode) runTUI(args []string) int {
	s := m.s
	if len(args) > 0 {
		fmt.Fprintf(s.ErrOut, "mm -tui: unexpected arguments %q: type the question in the window\n", strings.Join(args, " "))
		return 2
	}
	if m.f.habits.verbose && s.ErrTerminal {
		fmt.Fprintln(s.ErrOut, "mm -tui: --verbose writes on stderr, the terminal the window draws on: send it to a file (mm -tui --verbose 2>mm.log)")
		return 2
	}
	in, out, err := s.terminalFiles()
	if err != nil {
		fmt.Fprintf(s.ErrOut, "mm -tui: %v\n", err)
		return 1
	}
	return tui.Run(m.ctx, tui.Options{
		Session: m.withResumeNotice(m.session(false)), Banner: m.banner,
		Stdin: in, Stdout: out, Stderr: s.ErrOut,
		DisplayHooks: m.cfg.DisplayHooks, DisplayCommands: m.cfg.DisplayCommands,
	})
}

// runLine is the line mode, mm without a mode flag.
func (m *mode) runLine(args []string) int {
	s := m.s
	if len(args) > 0 {
		fmt.Fprintf(s.ErrOut, "mm: unexpected arguments %q: use mm -p \"<question>\" for one question\n", strings.Join(args, " "))
		return 2
	}
	hist := ""
	if s.InTerminal {
		hist = historyFile(s.ErrOut)
	}
	stdin, closeStdin := s.lineIn(m.ctx)
	defer closeStdin()
	return line.Run(m.ctx, line.Options{
		Session: m.session(false), Banner: m.lineBanner,
		Stdin: stdin, Stdout: s.Out, Stderr: s.ErrOut, Terminal: s.InTerminal,
		HistoryFile:  hist,
		DisplayHooks: m.cfg.DisplayHooks, DisplayCommands: m.cfg.DisplayCommands,
	})
}

// historyFile is where the line mode keeps its history: mm/history in the
// user's cache folder, a folder only its owner may enter (0700, made so if
// an older mm or another program left it open); "" for none, the reason
// said on stderr. The file is line.HistoryMode.
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

// privateFile creates path with line.HistoryMode, or gives an existing
// file that mode; a path that is not a regular file is refused.
func privateFile(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, line.HistoryMode)
		if err != nil {
			return err
		}
		return f.Close()
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	case fi.Mode().Perm() != line.HistoryMode:
		return os.Chmod(path, line.HistoryMode)
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
func readStdin(stdin io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(stdin, acpconn.MaxMessage+1))
	if err == nil && len(b) > acpconn.MaxMessage {
		err = fmt.Errorf("over %s, the limit of one message to an agent: send less", regularfile.FormatSize(acpconn.MaxMessage))
	}
	return b, err
}
