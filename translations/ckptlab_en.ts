<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>ChartText</name>
    <message numerus="yes">
        <source>%1: %2 (%n recomputed bar(s))</source>
        <translation>
            <numerusform>%1: %2 (%n recomputed bar)</numerusform>
            <numerusform>%1: %2 (%n recomputed bars)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n checkpoint(s)</source>
        <translation>
            <numerusform>%n checkpoint</numerusform>
            <numerusform>%n checkpoints</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n recomputed</source>
        <translation>
            <numerusform>%n recomputed</numerusform>
            <numerusform>%n recomputed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>95% interval of the median [%1, %2] ms from %n sample(s) in interleaved rounds</source>
        <translation>
            <numerusform>95% interval of the median [%1, %2] ms from %n sample in interleaved rounds</numerusform>
            <numerusform>95% interval of the median [%1, %2] ms from %n samples in interleaved rounds</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>min–max range [%1, %2] ms of only %n sample(s): no 95% interval</source>
        <translation>
            <numerusform>min–max range [%1, %2] ms of only %n sample: no 95% interval</numerusform>
            <numerusform>min–max range [%1, %2] ms of only %n samples: no 95% interval</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LessonStrings</name>
    <message numerus="yes">
        <source>%1 (%2, %n thread(s)), %3</source>
        <translation>
            <numerusform>%1 (%2, %n thread), %3</numerusform>
            <numerusform>%1 (%2, %n threads), %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message numerus="yes">
        <source>%n other run(s) fit.</source>
        <translation>
            <numerusform>%n other run fit.</numerusform>
            <numerusform>%n other runs fit.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Preparing a scaling sweep over %n size(s)…</source>
        <translation>
            <numerusform>Preparing a scaling sweep over %n size…</numerusform>
            <numerusform>Preparing a scaling sweep over %n sizes…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Preparing %n strategie(s)…</source>
        <translation>
            <numerusform>Preparing %n strategy…</numerusform>
            <numerusform>Preparing %n strategies…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n run(s), %1</source>
        <translation>
            <numerusform>Cancelled after %n run, %1</numerusform>
            <numerusform>Cancelled after %n runs, %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sweep finished: %n run(s) in %1</source>
        <translation>
            <numerusform>Sweep finished: %n run in %1</numerusform>
            <numerusform>Sweep finished: %n runs in %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TimeText</name>
    <message numerus="yes">
        <source>load %1 on %n CPU(s)</source>
        <translation>
            <numerusform>load %1 on %n CPU</numerusform>
            <numerusform>load %1 on %n CPUs</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n interleaved round(s) in %1</source>
        <translation>
            <numerusform>%n interleaved round in %1</numerusform>
            <numerusform>%n interleaved rounds in %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::MainWindow</name>
    <message numerus="yes">
        <source>Opened %1 (%n run(s))</source>
        <translation>
            <numerusform>Opened %1 (%n run)</numerusform>
            <numerusform>Opened %1 (%n runs)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>

The %n run(s) finished before this are kept.</source>
        <translation>
            <numerusform>

The %n run finished before this are kept.</numerusform>
            <numerusform>

The %n runs finished before this are kept.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>A sweep is running; closing stops it. The %n run(s) measured so far are not saved.

Stop the sweep and close anyway?</source>
        <translation>
            <numerusform>A sweep is running; closing stops it. The %n run measured so far is not saved.

Stop the sweep and close anyway?</numerusform>
            <numerusform>A sweep is running; closing stops it. The %n runs measured so far are not saved.

Stop the sweep and close anyway?</numerusform>
        </translation>
    </message>
</context>
</TS>
