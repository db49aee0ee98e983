// Preloaded with `node --import` into a command the bench spawns: at exit, the command's own CPU
// time goes to stderr as its last line (`cpu-ms N`), the figure that drifts less than wall time
// on a shared machine.
process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`cpu-ms ${Math.round((user + system) / 1000)}\n`);
});
