@echo off
rem `kioku` for an installed Kioku app (copied to <resources>\bin\kioku.cmd): the CLI runs on the
rem app's own Electron in Node mode, whose native modules it was built with.
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Kioku.exe" "%~dp0..\app.asar\bin\kioku.js" %*
exit /b %ERRORLEVEL%
