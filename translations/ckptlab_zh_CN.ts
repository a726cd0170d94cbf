<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ChartText</name>
    <message>
        <source>stored input (a checkpoint); write in each cell how often the block runs forward</source>
        <translation>保存的输入（一个检查点）；在每个格子里写下该块前向运行的次数</translation>
    </message>
    <message>
        <source>%1 (planned)</source>
        <extracomment>a schedule row whose forward counts come from the plan, not from a run</extracomment>
        <translation>%1（计划值）</translation>
    </message>
    <message>
        <source>The cost model predicts the plan, and %1 plans the same segments as %2: its predicted point is %2&apos;s, the same memory and time. What ran differs: each recompute ran the last segment&apos;s blocks.</source>
        <translation>代价模型预测的是计划，而 %1 计划的分段与 %2 相同：它的预测点就是 %2 的，峰值和时间都一样。实际运行的并不一样：每次重计算跑的都是最后一段的块。</translation>
    </message>
    <message>
        <source>%1 predicted: the plan of %2</source>
        <extracomment>beside seed-bug:4&apos;s predicted point, which is the point of segments:4&apos;s plan</extracomment>
        <translation>%1 的预测：即 %2 的计划</translation>
    </message>
    <message>
        <source>embedding</source>
        <comment>the chain&apos;s token embedding</comment>
        <translation>嵌入层</translation>
    </message>
    <message>
        <source>LM head</source>
        <comment>the chain&apos;s final norm, head and loss</comment>
        <translation>LM 头</translation>
    </message>
    <message>
        <source>embedding and LM head</source>
        <translation>嵌入层和 LM 头</translation>
    </message>
    <message>
        <source>%1, %2: recomputed activations
saved at %3, freed at %4 (%5 alive)
%6</source>
        <extracomment>%2 is a part of the chain: the embedding or the LM head</extracomment>
        <translation>%1，%2：重计算的激活值
保存于 %3，释放于 %4（存活 %5）
%6</translation>
    </message>
    <message>
        <source>%1, %2: forward activations
saved at %3, freed at %4 (%5 alive)
%6</source>
        <translation>%1，%2：前向激活值
保存于 %3，释放于 %4（存活 %5）
%6</translation>
    </message>
    <message>
        <source>weight copies (bf16)</source>
        <translation>权重副本（bf16）</translation>
    </message>
    <message>
        <source>logits</source>
        <translation>logits（对数几率）</translation>
    </message>
    <message>
        <source>embedding and LM head (never checkpointed)</source>
        <translation>嵌入层和 LM 头（从不设检查点）</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>%1: %2
%3 (%4 % of %5)</source>
        <translation>%1：%2
%3（占 %5 的 %4 %）</translation>
    </message>
    <message>
        <source>%1: %2 in total</source>
        <translation>%1：共 %2</translation>
    </message>
    <message>
        <source>Memory at the step&apos;s peak (MiB); checkpointing shrinks only the activations</source>
        <translation>训练步峰值时的内存 (MiB)；梯度检查点只缩减激活值</translation>
    </message>
    <message>
        <source>No chart to export.</source>
        <translation>没有可导出的图表。</translation>
    </message>
    <message>
        <source>Exporting charts needs a QApplication.</source>
        <translation>导出图表需要 QApplication。</translation>
    </message>
    <message>
        <source>PNG scale must be 1 or 2.</source>
        <translation>PNG 缩放倍数必须为 1 或 2。</translation>
    </message>
    <message>
        <source>Could not allocate the image.</source>
        <translation>无法分配图像。</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Could not start writing %1.</source>
        <translation>无法开始写入 %1。</translation>
    </message>
    <message>
        <source>Memory against time per strategy</source>
        <translation>各策略的内存与时间</translation>
    </message>
    <message>
        <source>Memory during one training step</source>
        <translation>一个训练步中的内存</translation>
    </message>
    <message>
        <source>Activation lifetimes</source>
        <translation>激活值生命周期</translation>
    </message>
    <message>
        <source>What the memory holds at the peak</source>
        <translation>峰值时内存的构成</translation>
    </message>
    <message>
        <source>Scaling</source>
        <translation>规模扫描</translation>
    </message>
    <message>
        <source>forward</source>
        <comment>phase of a training step</comment>
        <translation>前向</translation>
    </message>
    <message>
        <source>loss</source>
        <comment>phase of a training step</comment>
        <translation>损失</translation>
    </message>
    <message>
        <source>recompute</source>
        <comment>phase of a training step</comment>
        <translation>重计算</translation>
    </message>
    <message>
        <source>backward</source>
        <comment>phase of a training step</comment>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer</source>
        <comment>phase of a training step</comment>
        <translation>优化器</translation>
    </message>
    <message>
        <source>idle</source>
        <comment>phase of a training step</comment>
        <translation>空闲</translation>
    </message>
    <message>
        <source>No results yet</source>
        <translation>尚无结果</translation>
    </message>
    <message>
        <source>no runs</source>
        <translation>没有运行</translation>
    </message>
    <message>
        <source>; measured on %1</source>
        <translation>；测量设备：%1</translation>
    </message>
    <message>
        <source>Could not create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>%1, block %2: recomputed activations
saved at %3, freed at %4 (%5 alive)
%6</source>
        <translation>%1，第 %2 块：重计算的激活值
保存于 %3，释放于 %4（存活 %5）
%6</translation>
    </message>
    <message>
        <source>%1, block %2: forward activations
saved at %3, freed at %4 (%5 alive)
%6</source>
        <translation>%1，第 %2 块：前向激活值
保存于 %3，释放于 %4（存活 %5）
%6</translation>
    </message>
    <message>
        <source>Block (bar thickness = bytes kept)</source>
        <translation>块（条的粗细 = 保留的字节数）</translation>
    </message>
    <message>
        <source>forward activations</source>
        <translation>前向激活值</translation>
    </message>
    <message>
        <source>recomputed activations</source>
        <translation>重计算的激活值</translation>
    </message>
    <message>
        <source>No results for %1: the run failed</source>
        <translation>%1 没有结果：运行失败</translation>
    </message>
    <message>
        <source>No activation lifetimes recorded for %1</source>
        <translation>%1 没有记录激活值生命周期</translation>
    </message>
    <message numerus="yes">
        <source>%1: %2 (%n recomputed bar(s))</source>
        <translation>
            <numerusform>%1：%2（%n 条重计算）</numerusform>
        </translation>
    </message>
    <message>
        <source>Time since the step began (ms)</source>
        <translation>自训练步开始的时间 (ms)</translation>
    </message>
    <message>
        <source>predicted optimal frontier</source>
        <translation>预测的最优前沿</translation>
    </message>
    <message>
        <source>measured optimal curve</source>
        <translation>实测的最优曲线</translation>
    </message>
    <message>
        <source>prediction error</source>
        <translation>预测误差</translation>
    </message>
    <message>
        <source>%1 (predicted)</source>
        <translation>%1（预测）</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>不适用</translation>
    </message>
    <message>
        <source>gradient check not run</source>
        <translation>未做梯度校验</translation>
    </message>
    <message>
        <source>gradient check passed (max |Δ| %1)</source>
        <translation>梯度校验通过（最大 |Δ| %1）</translation>
    </message>
    <message>
        <source>gradient check FAILED (max |Δ| %1 &gt; %2)</source>
        <translation>梯度校验失败（最大 |Δ| %1 &gt; %2）</translation>
    </message>
    <message>
        <source>peak %1 · step %2</source>
        <translation>峰值 %1 · 每步 %2</translation>
    </message>
    <message>
        <source>memory saved %1 · time added %2</source>
        <translation>节省内存 %1 · 增加时间 %2</translation>
    </message>
    <message>
        <source>saved/added ratio %1</source>
        <translation>节省/增加比 %1</translation>
    </message>
    <message>
        <source>predicted peak %1 · measured %2 (error %3 %)</source>
        <translation>预测峰值 %1 · 实测 %2（误差 %3 %）</translation>
    </message>
    <message>
        <source>predicted activations %1 · measured %2 (error %3 %)</source>
        <translation>预测激活值 %1 · 实测 %2（误差 %3 %）</translation>
    </message>
    <message>
        <source>predicted step %1 · measured %2 (error %3 %)</source>
        <translation>预测每步 %1 · 实测 %2（误差 %3 %）</translation>
    </message>
    <message>
        <source>Depth (blocks, log₂)</source>
        <translation>深度（块数，log₂）</translation>
    </message>
    <message>
        <source>Sequence length (tokens, log₂)</source>
        <translation>序列长度（token 数，log₂）</translation>
    </message>
    <message>
        <source>Width (log₂)</source>
        <translation>宽度 (log₂)</translation>
    </message>
    <message>
        <source>Batch size (log₂)</source>
        <translation>批大小 (log₂)</translation>
    </message>
    <message>
        <source>depth</source>
        <comment>scaling axis</comment>
        <translation>深度</translation>
    </message>
    <message>
        <source>seq</source>
        <comment>scaling axis: sequence length</comment>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>width</source>
        <comment>scaling axis</comment>
        <translation>宽度</translation>
    </message>
    <message>
        <source>batch</source>
        <comment>scaling axis</comment>
        <translation>批大小</translation>
    </message>
    <message>
        <source>activation memory</source>
        <translation>激活值内存</translation>
    </message>
    <message>
        <source>peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <source>Activation memory (MiB, log₂)</source>
        <translation>激活值内存（MiB，log₂）</translation>
    </message>
    <message>
        <source>Peak memory (MiB, log₂)</source>
        <translation>峰值内存（MiB，log₂）</translation>
    </message>
    <message>
        <source>Step time (ms, log₂)</source>
        <translation>每步时间（ms，log₂）</translation>
    </message>
    <message>
        <source>%1
fitted %2 ∝ %3^k</source>
        <translation>%1
拟合 %2 ∝ %3^k</translation>
    </message>
    <message>
        <source>%1
%2 %3: %4 %5</source>
        <translation>%1
%2 %3：%5 %4</translation>
    </message>
    <message>
        <source>
fit %1</source>
        <translation>
拟合 %1</translation>
    </message>
    <message>
        <source>%1: %2 against %3 (log-log)</source>
        <translation>%1：%2 随 %3 的变化（双对数）</translation>
    </message>
    <message>
        <source>failed: %1</source>
        <translation>失败：%1</translation>
    </message>
    <message>
        <source>block →</source>
        <translation>块 →</translation>
    </message>
    <message>
        <source>cells: attention | FFN</source>
        <translation>单元：注意力 | FFN</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <comment>stored inputs, recomputed blocks</comment>
        <translation>%1，%2</translation>
    </message>
    <message numerus="yes">
        <source>%n checkpoint(s)</source>
        <translation>
            <numerusform>%n 个检查点</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n recomputed</source>
        <translation>
            <numerusform>%n 个重计算</numerusform>
        </translation>
    </message>
    <message>
        <source>run once (kept)</source>
        <translation>运行一次（保留）</translation>
    </message>
    <message>
        <source>recomputed once</source>
        <translation>重计算一次</translation>
    </message>
    <message>
        <source>twice</source>
        <translation>两次</translation>
    </message>
    <message>
        <source>3+ times</source>
        <translation>3 次及以上</translation>
    </message>
    <message>
        <source>stored input; bracket: segment recomputed in backward (nested ones lower)</source>
        <translation>存储的输入；括号：反向时重计算的段（嵌套的在下方）</translation>
    </message>
    <message>
        <source>Checkpoint schedules</source>
        <translation>检查点调度</translation>
    </message>
    <message>
        <source>Scaling of the step time</source>
        <translation>每步时间随规模的变化</translation>
    </message>
    <message>
        <source>Not a scaling sweep</source>
        <translation>不是规模扫描</translation>
    </message>
    <message>
        <source>Step time, fastest repeat (ms; no error bars)</source>
        <translation>每步时间，最快的一次（ms；无误差棒）</translation>
    </message>
    <message>
        <source>block boundaries</source>
        <translation>块边界</translation>
    </message>
    <message>
        <source>%1
%2 at %3</source>
        <translation>%1
%3 时为 %2</translation>
    </message>
    <message>
        <source>%1 of block %2</source>
        <comment>phase of block N</comment>
        <translation>第 %2 块的%1</translation>
    </message>
    <message>
        <source>%1 of %2: %3 to %4</source>
        <translation>%2 的%1：%3 至 %4</translation>
    </message>
    <message>
        <source>%1 (phases of %2 shaded)</source>
        <translation>%1（阴影为 %2 的各阶段）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Memory above the step&apos;s start (MiB)</source>
        <translation>高于训练步开始时的内存 (MiB)</translation>
    </message>
    <message>
        <source>none baseline</source>
        <translation>none 基线</translation>
    </message>
    <message>
        <source>%1 (predicted)
%2</source>
        <translation>%1（预测）
%2</translation>
    </message>
    <message>
        <source>Pareto frontier</source>
        <translation>帕累托前沿</translation>
    </message>
    <message>
        <source>%1 (lower left is better)</source>
        <translation>%1（越靠左下越好）</translation>
    </message>
    <message>
        <source>Peak memory (MiB)</source>
        <translation>峰值内存 (MiB)</translation>
    </message>
    <message>
        <source>Step time (ms)</source>
        <translation>每步时间 (ms)</translation>
    </message>
    <message>
        <source>Block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>内存 (MiB)</translation>
    </message>
    <message numerus="yes">
        <source>95% interval of the median [%1, %2] ms from %n sample(s) in interleaved rounds</source>
        <translation>
            <numerusform>中位数的 95% 区间 [%1, %2] ms，来自交错轮次中的 %n 个样本</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>min–max range [%1, %2] ms of only %n sample(s): no 95% interval</source>
        <translation>
            <numerusform>仅 %n 个样本的最小–最大范围 [%1, %2] ms：没有 95% 区间</numerusform>
        </translation>
    </message>
    <message>
        <source>memory saved %1 · time added ≈ 0 [%2, %3] % (within noise)</source>
        <translation>节省内存 %1 · 增加时间 ≈ 0 [%2, %3] %（在噪声范围内）</translation>
    </message>
    <message>
        <source>fastest repeat: no error bar (the interval is the median&apos;s)</source>
        <translation>最快的一次：没有误差棒（区间属于中位数）</translation>
    </message>
    <message>
        <source>Reserved segments and their blocks</source>
        <translation>预留段及其中的块</translation>
    </message>
    <message>
        <source>live before the step</source>
        <translation>训练步前已存在</translation>
    </message>
    <message>
        <source>other</source>
        <comment>what allocated a block: none of the step&apos;s phases</comment>
        <translation>其他</translation>
    </message>
    <message>
        <source>Allocated before the step began (parameters, input, optimizer state and the like)</source>
        <translation>在训练步开始前分配（参数、输入、优化器状态等）</translation>
    </message>
    <message>
        <source>Allocated by %1</source>
        <translation>由%1分配</translation>
    </message>
    <message>
        <source>requested %1, held %2 as the allocator rounds it</source>
        <translation>请求 %1，经分配器取整后占用 %2</translation>
    </message>
    <message>
        <source>allocated at %1</source>
        <translation>分配于 %1</translation>
    </message>
    <message>
        <source>freed at %1</source>
        <translation>释放于 %1</translation>
    </message>
    <message>
        <source>still allocated when the step ended</source>
        <translation>训练步结束时仍已分配</translation>
    </message>
    <message>
        <source>segment %1, offset %2</source>
        <translation>段 %1，偏移 %2</translation>
    </message>
    <message>
        <source>Segment %1 of the small pool: %2 reserved</source>
        <translation>小池的段 %1：预留 %2</translation>
    </message>
    <message>
        <source>Segment %1 of the large pool: %2 reserved</source>
        <translation>大池的段 %1：预留 %2</translation>
    </message>
    <message>
        <source>reserved at %1</source>
        <translation>预留于 %1</translation>
    </message>
    <message>
        <source>reserved before the step</source>
        <translation>在训练步开始前预留</translation>
    </message>
    <message>
        <source>released at %1</source>
        <translation>归还于 %1</translation>
    </message>
    <message>
        <source>still reserved when the step ended</source>
        <translation>训练步结束时仍被预留</translation>
    </message>
    <message>
        <source>at %1: %2 allocated in it, %3 reserved but free</source>
        <translation>在 %1：其中已分配 %2，%3 已预留但空闲</translation>
    </message>
    <message>
        <source>No segments for %1: it ran with the system allocator (malloc)</source>
        <translation>%1 没有段：它使用系统分配器（malloc）运行</translation>
    </message>
    <message>
        <source>No segments for %1: CUDA&apos;s allocator does not list them</source>
        <translation>%1 没有段：CUDA 的分配器不列出它们</translation>
    </message>
    <message>
        <source>No segments for %1: its file is older than the allocator&apos;s trace</source>
        <translation>%1 没有段：它的文件早于分配器的轨迹记录</translation>
    </message>
    <message>
        <source>%1: %2 (reserved peak %3, allocated peak %4)</source>
        <translation>%1：%2（预留峰值 %3，已分配峰值 %4）</translation>
    </message>
    <message>
        <source>No segments for %1: its traced step reserved none</source>
        <translation>%1 没有段：它被跟踪的训练步没有预留任何段</translation>
    </message>
    <message>
        <source>Reserved (GiB)</source>
        <translation>预留 (GiB)</translation>
    </message>
    <message>
        <source>Reserved (MiB)</source>
        <translation>预留 (MiB)</translation>
    </message>
    <message>
        <source>Reserved segments, stacked in the order reserved (GiB)</source>
        <translation>预留段，按预留顺序堆叠 (GiB)</translation>
    </message>
    <message>
        <source>Reserved segments, stacked in the order reserved (MiB)</source>
        <translation>预留段，按预留顺序堆叠 (MiB)</translation>
    </message>
    <message>
        <source>reserved, free (fragmentation)</source>
        <translation>已预留但空闲（碎片）</translation>
    </message>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>reserved, not allocated</source>
        <translation>已预留、未分配</translation>
    </message>
    <message>
        <source>capacity %1</source>
        <translation>容量 %1</translation>
    </message>
    <message>
        <source>%1: %2
%3 of %4 reserved</source>
        <translation>%1：%2
%3（共预留 %4）</translation>
    </message>
    <message>
        <source>%1: %2 reserved at the peak</source>
        <translation>%1：峰值时预留 %2</translation>
    </message>
    <message>
        <source>fastest that fits</source>
        <translation>放得下的最快方案</translation>
    </message>
    <message>
        <source>Memory at the peak: batch %1, sequence %2, capacity %3</source>
        <translation>峰值时的内存：批大小 %1，序列长度 %2，容量 %3</translation>
    </message>
    <message>
        <source>Memory at the step&apos;s peak (GB, 10^9 bytes)</source>
        <translation>训练步峰值时的内存（GB，10^9 字节）</translation>
    </message>
    <message>
        <source>Memory during one step of %1: predicted, not measured</source>
        <translation>%1 一个训练步中的内存：预测值，非实测</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <comment>a config field&apos;s label and its value</comment>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>ComparisonText</name>
    <message>
        <source>%1 has no schedule at the size %2 plans for (its budget is below the least peak): not compared.</source>
        <translation>%1 在 %2 所规划的规模下没有可行的调度（其预算低于最小峰值）：不作比较。</translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <comment>a config value in one file</comment>
        <translation>%2 为 %1</translation>
    </message>
    <message>
        <source>no runs</source>
        <translation>无运行</translation>
    </message>
    <message>
        <source>%1 differs: %2. It changes the work itself, so these files&apos; memory and time do not compare run by run.</source>
        <translation>%1 不同：%2。这改变了计算本身，因此这些文件的内存和时间不能逐个运行直接比较。</translation>
    </message>
    <message>
        <source>%1 differs: %2.</source>
        <translation>%1 不同：%2。</translation>
    </message>
    <message>
        <source>%1 holds no runs.</source>
        <translation>%1 中没有任何运行。</translation>
    </message>
    <message>
        <source>The sweep of %1 was cancelled: some of its runs may be missing.</source>
        <translation>%1 的扫描已被取消：其中部分运行可能缺失。</translation>
    </message>
    <message>
        <source>%1 is not in %2: nothing to compare it with there.</source>
        <translation>%2 中没有 %1：那里没有可与之比较的运行。</translation>
    </message>
    <message>
        <source>Memory and time do not compare between %1 and %2: their runs differ in the work (model shape, dtype, optimizer or kept gradients).</source>
        <translation>%1 与 %2 之间的内存和时间不可比较：它们的运行所做的计算不同（模型形状、数据类型、优化器或保留的梯度）。</translation>
    </message>
    <message>
        <source>%1 and %2 are different machines: their step times compare only as a ratio of the same work, not as a property of a strategy.</source>
        <translation>%1 与 %2 是不同的机器：它们的步时间只能作为同一计算的比值来比较，而不能看作某个策略本身的特性。</translation>
    </message>
    <message>
        <source>%1 ran with another thread count than %2 on the same machine: the step times include it.</source>
        <translation>%1 与 %2 在同一台机器上以不同的线程数运行：步时间中包含了线程数的影响。</translation>
    </message>
    <message>
        <source>%1 failed in %2: not compared.</source>
        <translation>%1 在 %2 中失败：不参与比较。</translation>
    </message>
    <message>
        <source>%1 ran out of memory in %2: not compared.</source>
        <translation>%1 在 %2 中内存不足：不参与比较。</translation>
    </message>
    <message>
        <source>%1 in %2 did not pass its gradient check: its numbers are shown, but it did not compute the right gradients.</source>
        <translation>%2 中的 %1 未通过梯度检查：仍显示其数值，但它算出的梯度不正确。</translation>
    </message>
    <message>
        <source>%1 appears more than once in %2: the first run is compared.</source>
        <translation>%1 在 %2 中出现了不止一次：只比较第一次运行。</translation>
    </message>
</context>
<context>
    <name>CoreText</name>
    <message>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>seq</source>
        <comment>sequence length</comment>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>batch</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>warmup</source>
        <translation>预热步数</translation>
    </message>
    <message>
        <source>repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>dropout</source>
        <translation>dropout</translation>
    </message>
    <message>
        <source>device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>memory limit</source>
        <translation>内存上限</translation>
    </message>
    <message>
        <source>%1 must be between %2 and %3 (got %4)</source>
        <translation>%1 必须在 %2 到 %3 之间（当前为 %4）</translation>
    </message>
    <message>
        <source>keep every activation (the baseline)</source>
        <translation>保留所有激活值（基线）</translation>
    </message>
    <message>
        <source>checkpoint every block</source>
        <translation>每个块都设检查点</translation>
    </message>
    <message>
        <source>checkpoint blocks 0, N, 2N, ... (seed experiment 1)</source>
        <translation>在第 0、N、2N… 块设检查点（教程实验 1）</translation>
    </message>
    <message>
        <source>K contiguous checkpointed segments (seed experiment 2)</source>
        <translation>K 个连续的检查点段（教程实验 2）</translation>
    </message>
    <message>
        <source>checkpoint blocks K.. only (seed experiment 3)</source>
        <translation>只在第 K 块及之后设检查点（教程实验 3）</translation>
    </message>
    <message>
        <source>checkpoint blocks 0..K-1 only (the other half of from:K)</source>
        <translation>只在第 0 到 K-1 块设检查点（from:K 的另一半）</translation>
    </message>
    <message>
        <source>ceil(sqrt(L)) segments (Chen et al. 2016)</source>
        <translation>ceil(sqrt(L)) 个段（Chen 等，2016）</translation>
    </message>
    <message>
        <source>transformer, llama: checkpoint only the attention sub-block</source>
        <translation>transformer、llama：只对注意力子块设检查点</translation>
    </message>
    <message>
        <source>transformer, llama: checkpoint only the MLP (FFN) sub-block</source>
        <translation>transformer、llama：只对 MLP（FFN）子块设检查点</translation>
    </message>
    <message>
        <source>segments with the tutorial&apos;s closure bug: wrong gradients before the last segment, as in PyTorch (fails the gradient check)</source>
        <translation>带有教程闭包错误的分段：最后一段之前的块梯度错误，与 PyTorch 相同（梯度校验失败）</translation>
    </message>
    <message>
        <source>fastest schedule whose predicted peak fits MiB (dynamic program)</source>
        <translation>预测峰值不超过 MiB 的最快调度（动态规划）</translation>
    </message>
    <message>
        <source>Griewank&apos;s binomial schedule with S stored states</source>
        <translation>Griewank 的二项式调度，存储 S 个状态</translation>
    </message>
    <message>
        <source>heads must divide width (width %1, heads %2)</source>
        <translation>注意力头数必须整除宽度（宽度 %1，头数 %2）</translation>
    </message>
    <message>
        <source>device must be cpu, cuda or cuda:N with N from 0 to %1 (got &quot;%2&quot;)</source>
        <translation>设备必须是 cpu、cuda 或 cuda:N（N 为 0 到 %1）（当前为“%2”）</translation>
    </message>
    <message>
        <source>unknown strategy &quot;%1&quot; (known: %2)</source>
        <translation>未知策略“%1”（可用：%2）</translation>
    </message>
    <message>
        <source>strategy &quot;%1&quot; takes no parameter (got &quot;%2&quot;)</source>
        <translation>策略“%1”不带参数（当前为“%2”）</translation>
    </message>
    <message>
        <source>optimal:MiB needs a memory budget between %1 and %2 MiB above the step&apos;s start, e.g. %3 (got &quot;%4&quot;)</source>
        <translation>optimal:MiB 需要一个高于训练步开始时 %1 到 %2 MiB 之间的内存预算，例如 %3（当前为“%4”）</translation>
    </message>
    <message>
        <source>strategy &quot;%1&quot; needs an integer parameter, e.g. %2 (got &quot;%3&quot;)</source>
        <translation>策略“%1”需要一个整数参数，例如 %2（当前为“%3”）</translation>
    </message>
    <message>
        <source>%1:N needs N between %2 and %3 for depth %4 (got %5)</source>
        <translation>深度为 %4 时，%1:N 的 N 必须在 %2 到 %3 之间（当前为 %5）</translation>
    </message>
    <message>
        <source>building the model</source>
        <translation>正在构建模型</translation>
    </message>
    <message>
        <source>measuring the cost model</source>
        <translation>正在测量代价模型</translation>
    </message>
    <message>
        <source>%1: optimizer state</source>
        <translation>%1：优化器状态</translation>
    </message>
    <message>
        <source>%1: out of memory</source>
        <translation>%1：内存不足</translation>
    </message>
    <message>
        <source>%1: traced step</source>
        <translation>%1：跟踪步</translation>
    </message>
    <message>
        <source>%1: warm-up %2/%3</source>
        <translation>%1：预热 %2/%3</translation>
    </message>
    <message>
        <source>%1: timed step %2/%3</source>
        <translation>%1：计时步 %2/%3</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <source>timed rounds done</source>
        <translation>计时轮次完成</translation>
    </message>
    <message>
        <source>time limit</source>
        <translation>时间上限</translation>
    </message>
    <message>
        <source>key/value heads</source>
        <comment>grouped-query attention</comment>
        <translation>键值头数</translation>
    </message>
    <message>
        <source>optimizer</source>
        <comment>config field</comment>
        <translation>优化器</translation>
    </message>
    <message>
        <source>seed</source>
        <comment>config field: random seed</comment>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>kept gradients</source>
        <comment>config field: keep the previous step&apos;s</comment>
        <translation>保留梯度</translation>
    </message>
    <message>
        <source>adaptive repeats</source>
        <comment>config field: --repeats auto</comment>
        <translation>自适应重复次数</translation>
    </message>
    <message>
        <source>points</source>
        <comment>Pareto sweep: optimal budgets to run</comment>
        <translation>点数</translation>
    </message>
    <message>
        <source>%1 must be between %2 and %3 seconds (got %4)</source>
        <translation>%1 必须在 %2 到 %3 秒之间（当前为 %4）</translation>
    </message>
    <message>
        <source>%1 must be 0 (no limit) or between %2 and %3 MiB (got %4)</source>
        <translation>%1 必须为 0（不限），或在 %2 到 %3 MiB 之间（当前为 %4）</translation>
    </message>
    <message>
        <source>kv-heads must divide heads (heads %1, kv-heads %2)</source>
        <translation>KV 头数必须整除注意力头数（头数 %1，KV 头数 %2）</translation>
    </message>
    <message>
        <source>device must be cpu: this LibTorch has no usable CUDA (got &quot;%1&quot;)</source>
        <translation>设备必须是 cpu：此 LibTorch 没有可用的 CUDA（当前为“%1”）</translation>
    </message>
    <message>
        <source>device must be cuda:0 to cuda:%1 on this machine (got &quot;%2&quot;)</source>
        <translation>本机上设备必须是 cuda:0 到 cuda:%1（当前为“%2”）</translation>
    </message>
    <message>
        <source>strategies: give at least one strategy</source>
        <translation>策略：请至少给出一个策略</translation>
    </message>
    <message>
        <source>strategies: %1 is listed twice (items %2 and %3)</source>
        <translation>策略：%1 列出了两次（第 %2 项和第 %3 项）</translation>
    </message>
    <message>
        <source>%1 plans at most %2 units (depth x sub-blocks per block: 1 for ffn, 2 for transformer); depth %3 of %4 blocks is %5 units: use depth 1 to %6</source>
        <translation>%1 最多规划 %2 个单元（深度 × 每块子块数：ffn 为 1，transformer 为 2）；深度 %3 的 %4 块共 %5 个单元：请使用 1 到 %6 的深度</translation>
    </message>
    <message>
        <source>a Pareto sweep plans at most %1 units (depth x sub-blocks per block: 1 for ffn, 2 for transformer); depth %2 of %3 blocks is %4 units: use depth 1 to %5</source>
        <translation>帕累托扫描最多规划 %1 个单元（深度 × 每块子块数：ffn 为 1，transformer 为 2）；深度 %2 的 %3 块共 %4 个单元：请使用 1 到 %5 的深度</translation>
    </message>
    <message>
        <source>values: give at least two values to fit</source>
        <translation>取值：拟合至少需要两个取值</translation>
    </message>
    <message>
        <source>values: %1 is listed twice (items %2 and %3); a fit needs distinct sizes</source>
        <translation>取值：%1 列出了两次（第 %2 项和第 %3 项）；拟合需要互不相同的规模</translation>
    </message>
    <message>
        <source>at %1=%2: %3</source>
        <translation>在 %1=%2 时：%3</translation>
    </message>
    <message>
        <source>config does not fit: strategy %1 is predicted to need %2 but only %3 are available on %4</source>
        <translation>配置放不下：策略 %1 预计需要 %2，但 %4 上只有 %3 可用</translation>
    </message>
    <message>
        <source>config does not fit: strategy %1 (its budget taken as the upper bound of its peak) is predicted to need %2 but only %3 are available on %4</source>
        <translation>配置放不下：策略 %1（以其预算作为峰值上限）预计需要 %2，但 %4 上只有 %3 可用</translation>
    </message>
    <message>
        <source>optimal:%1 MiB is below the smallest feasible schedule, which needs %2 MiB above the step&apos;s start</source>
        <translation>optimal:%1 MiB 低于最小可行调度，后者需要高于训练步开始时 %2 MiB</translation>
    </message>
    <message>
        <source>no schedule fits %1 bytes</source>
        <translation>没有调度能放进 %1 字节</translation>
    </message>
    <message>
        <source>one layer needs %1 GB to measure, %2 GB are available</source>
        <translation>测量一层需要 %1 GB，可用的只有 %2 GB</translation>
    </message>
    <message>
        <source>lesson %1, step %2: %3</source>
        <translation>课程 %1，步骤 %2：%3</translation>
    </message>
    <message>
        <source>reference gradients (none)</source>
        <translation>参考梯度（none）</translation>
    </message>
    <message>
        <source>%1: previous step, its gradients kept</source>
        <translation>%1：上一步，保留其梯度</translation>
    </message>
    <message>
        <source>%1: the baseline starts without gradients, as the tutorial&apos;s did</source>
        <translation>%1：基线从无梯度开始，与教程相同</translation>
    </message>
    <message>
        <source>%1: failed</source>
        <translation>%1：失败</translation>
    </message>
    <message>
        <source>timed round %1 (auto)</source>
        <translation>第 %1 轮计时（自动）</translation>
    </message>
    <message>
        <source>allocator</source>
        <comment>config field: CPU memory allocator, caching or system</comment>
        <translation>分配器</translation>
    </message>
    <message>
        <source>block</source>
        <comment>config field: ffn, transformer or llama</comment>
        <translation>块类型</translation>
    </message>
    <message>
        <source>precision</source>
        <comment>config field: float32, bfloat16 or mixed-bf16</comment>
        <translation>精度</translation>
    </message>
    <message>
        <source>head width</source>
        <comment>config field: each attention head&apos;s</comment>
        <translation>每头宽度</translation>
    </message>
    <message>
        <source>MLP width</source>
        <comment>config field: the MLP&apos;s hidden width</comment>
        <translation>MLP 宽度</translation>
    </message>
    <message>
        <source>rotary base</source>
        <comment>config field: rotary embeddings&apos; theta</comment>
        <translation>旋转位置编码基数</translation>
    </message>
    <message>
        <source>RMSNorm epsilon</source>
        <translation>RMSNorm 的 epsilon</translation>
    </message>
    <message>
        <source>q/k/v bias</source>
        <comment>config field: biases on q, k and v</comment>
        <translation>q/k/v 偏置</translation>
    </message>
    <message>
        <source>attention</source>
        <comment>config field: eager, memory-efficient or sdpa</comment>
        <translation>注意力实现</translation>
    </message>
    <message>
        <source>attention chunk</source>
        <comment>config field: queries and keys per chunk</comment>
        <translation>注意力分块</translation>
    </message>
    <message>
        <source>vocabulary</source>
        <comment>config field: vocabulary size</comment>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>tied embeddings</source>
        <comment>config field: the LM head reuses the embedding</comment>
        <translation>共享嵌入权重</translation>
    </message>
    <message>
        <source>loss chunks</source>
        <comment>config field: the LM head and loss in sequence chunks</comment>
        <translation>损失分块数</translation>
    </message>
    <message>
        <source>strategy &quot;%1&quot; checkpoints a sub-block of an attention block; use block transformer or llama</source>
        <translation>策略“%1”对注意力块的子块设检查点；请使用 transformer 或 llama 块</translation>
    </message>
    <message>
        <source>head-dim must be even: rotary embeddings turn pairs of features (got %1)</source>
        <translation>每头宽度必须为偶数：旋转位置编码成对旋转特征（当前为 %1）</translation>
    </message>
    <message>
        <source>head-dim: width %1 is not a whole number of heads (%2); give --head-dim</source>
        <translation>每头宽度：宽度 %1 不能平分给 %2 个注意力头；请设置每头宽度（--head-dim）</translation>
    </message>
    <message>
        <source>loss-chunks must be at most seq (%1 tokens, got %2)</source>
        <translation>损失分块数不能超过序列长度（%1 个 token，当前为 %2）</translation>
    </message>
    <message>
        <source>%1 applies to the LM head: give vocab too (got %1 %2)</source>
        <translation>%1 作用于 LM 头：请同时设置词表大小（当前为 %1 %2）</translation>
    </message>
    <message>
        <source>attention %1 runs without dropout: set dropout to 0 (got %2)</source>
        <translation>注意力实现 %1 不使用 dropout：请把 dropout 设为 0（当前为 %2）</translation>
    </message>
    <message>
        <source>attention sdpa needs LibTorch 2.0 or later (this one is %1)</source>
        <translation>注意力实现 sdpa 需要 LibTorch 2.0 或更高版本（当前为 %1）</translation>
    </message>
    <message>
        <source>precision %1 needs bf16 arithmetic on the device; %2 has none</source>
        <translation>精度 %1 需要设备支持 bf16 运算；%2 不支持</translation>
    </message>
    <message>
        <source>%1 is too large: the scores eager attention keeps of all layers (depth x batch x heads x seq x seq) would need more than 2^63 bytes</source>
        <translation>%1 过大：eager 注意力为所有层保留的分数（深度 × 批大小 × 头数 × 序列长度 × 序列长度）将需要超过 2^63 字节</translation>
    </message>
</context>
<context>
    <name>FitText</name>
    <message>
        <source>no schedule: the least peak is %1</source>
        <translation>没有调度：峰值至少为 %1</translation>
    </message>
    <message>
        <source>yes, %1 spare</source>
        <translation>是，余 %1</translation>
    </message>
    <message>
        <source>no, %1 short</source>
        <translation>否，差 %1</translation>
    </message>
    <message>
        <source>none</source>
        <extracomment>a largest batch or longest sequence of 0: not even the smallest fits</extracomment>
        <translation>无</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>已分配</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已预留</translation>
    </message>
    <message>
        <source>Fits?</source>
        <translation>放得下？</translation>
    </message>
    <message>
        <source>Largest batch</source>
        <translation>最大批大小</translation>
    </message>
    <message>
        <source>Longest sequence</source>
        <translation>最长序列</translation>
    </message>
    <message>
        <source>Tokens/s on this machine</source>
        <translation>本机每秒词元数</translation>
    </message>
    <message>
        <source>At the sequence asked for, against the capacity</source>
        <translation>在所填序列长度下，对照容量</translation>
    </message>
    <message>
        <source>At the batch asked for, against the capacity</source>
        <translation>在所填批大小下，对照容量</translation>
    </message>
    <message>
        <source>At the largest batch, from the times measured on this machine, not on the GPU</source>
        <translation>在最大批大小下，按本机（而非 GPU）实测的时间计算</translation>
    </message>
    <message>
        <source>The fastest schedule that fits in %1 is the planner&apos;s for a budget of %2 MiB above the step&apos;s start: %3 reserved, %4 spare.</source>
        <translation>%1 中放得下的最快方案是规划器在训练步起点之上 %2 MiB 预算下给出的方案：预留 %3，余 %4。</translation>
    </message>
    <message>
        <source>The fastest schedule that fits in %1 is %2: %3 reserved, %4 spare.</source>
        <translation>%1 中放得下的最快方案是 %2：预留 %3，余 %4。</translation>
    </message>
    <message>
        <source>Weights, gradients and optimizer state alone take %1, more than the %2 capacity: no checkpointing schedule can make it fit.</source>
        <translation>仅权重、梯度和优化器状态就占 %1，超过 %2 的容量：任何检查点方案都无法让它放下。</translation>
    </message>
    <message>
        <source>Nothing fits in %1: even the schedule that keeps the least needs more.</source>
        <translation>%1 中什么都放不下：即使保存最少的方案也需要更多内存。</translation>
    </message>
    <message>
        <source>It would fit in %1 (%2).</source>
        <translation>它可以放进 %1（%2）。</translation>
    </message>
    <message>
        <source>Not even the largest preset, %1, holds it.</source>
        <translation>即使最大的预设 %1 也放不下。</translation>
    </message>
</context>
<context>
    <name>HandoutText</name>
    <message>
        <source>%1 — teacher&apos;s key</source>
        <translation>%1 — 教师答案</translation>
    </message>
    <message>
        <source>Teacher&apos;s key: the answers, the right choices and the measured values</source>
        <translation>教师答案：答案、正确选项与测量值</translation>
    </message>
    <message>
        <source>%1 (measured: %2)</source>
        <translation>%1（测量值：%2）</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>Measured: %1 %2</source>
        <translation>测量值：%1 %2</translation>
    </message>
    <message>
        <source>Measured: no value in these results</source>
        <translation>测量值：这些结果中没有该值</translation>
    </message>
    <message>
        <source>Name: %1    Date: %2</source>
        <translation>姓名：%1    日期：%2</translation>
    </message>
    <message>
        <source>No right choice in these results: %1</source>
        <translation>这些结果无法判定正确选项：%1</translation>
    </message>
    <message>
        <source>Predict</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Quiz</source>
        <translation>小测验</translation>
    </message>
    <message>
        <source>Recorded on %1</source>
        <translation>录制于：%1</translation>
    </message>
    <message>
        <source>Sketch what you expect; the chart is shown in class.</source>
        <translation>画出你预期的图；课上会展示实际的图表。</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Then a quiz of %1 questions.</source>
        <translation>最后是 %1 道小测验题。</translation>
    </message>
    <message>
        <source>Your prediction: %1 %2      Measured in class: %1 %2</source>
        <translation>你的预测：%1 %2      课上测得：%1 %2</translation>
    </message>
</context>
<context>
    <name>LessonStrings</name>
    <message>
        <source>Steps and where their results come from</source>
        <translation>步骤及其结果来源</translation>
    </message>
    <message>
        <source>no results</source>
        <translation>无结果</translation>
    </message>
    <message>
        <source>%1. %2 — %3</source>
        <translation>%1. %2 — %3</translation>
    </message>
    <message>
        <source>No results for this step: run it live to see its chart and answer.</source>
        <translation>此步骤还没有结果：现场运行后即可看到图表和答案。</translation>
    </message>
    <message>
        <source>Writing a handout needs a QApplication.</source>
        <translation>生成讲义需要 QApplication。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>%1 model, %2 blocks, width %3, seq %4, batch %5</source>
        <translation>%1 模型，%2 个块，宽度 %3，序列长度 %4，批大小 %5</translation>
    </message>
    <message>
        <source>%1, previous step&apos;s gradients kept</source>
        <translation>%1，保留上一步的梯度</translation>
    </message>
    <message>
        <source>%1, device capacity %2 MiB</source>
        <translation>%1，设备容量 %2 MiB</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Runs %1 at %2 = %3 on %4</source>
        <translation>在 %4 上，于 %2 = %3 运行 %1</translation>
    </message>
    <message>
        <source>Runs %1 on %2</source>
        <translation>在 %2 上运行 %1</translation>
    </message>
    <message>
        <source>Measured live on this machine.</source>
        <translation>在本机现场测量。</translation>
    </message>
    <message>
        <source>Recorded on %1 at %2.</source>
        <translation>录制于 %1，日期 %2。</translation>
    </message>
    <message>
        <source>No results for this step yet: press Run live to measure it.</source>
        <translation>此步骤还没有结果：点击“现场运行”进行测量。</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2, %n thread(s)), %3</source>
        <translation>
            <numerusform>%1（%2，%n 个线程），%3</numerusform>
        </translation>
    </message>
    <message>
        <source>You predicted %1 %2; the measurement has no value for it yet (run the step live).</source>
        <translation>你预测 %1 %2；测量结果中还没有对应的数值（请现场运行该步骤）。</translation>
    </message>
    <message>
        <source>The measurement has no value for this prediction yet (run the step live).</source>
        <translation>测量结果中还没有这个预测对应的数值（请现场运行该步骤）。</translation>
    </message>
    <message>
        <source>No prediction; measured %1 %2.</source>
        <translation>未做预测；测得 %1 %2。</translation>
    </message>
    <message>
        <source>You predicted %1 %2; measured %3 %2.</source>
        <translation>你预测 %1 %2；测得 %3 %2。</translation>
    </message>
    <message>
        <source>The measurement does not decide between the choices yet (run the step live).</source>
        <translation>测量结果还无法在这些选项中作出判定（请现场运行该步骤）。</translation>
    </message>
    <message>
        <source>You chose %1; the measurement does not decide between the choices yet.</source>
        <translation>你选择了%1；测量结果还无法在这些选项中作出判定。</translation>
    </message>
    <message>
        <source>No prediction; the measurement says %1.</source>
        <translation>未做预测；测量结果是%1。</translation>
    </message>
    <message>
        <source>You chose %1; the measurement says %2.</source>
        <translation>你选择了%1；测量结果是%2。</translation>
    </message>
    <message>
        <source>%1 (%2 min)</source>
        <translation>%1（%2 分钟）</translation>
    </message>
    <message>
        <source>This step is not on the path (%1 min in all); Next goes back to it.</source>
        <translation>这一步不在路径上（路径共 %1 分钟）；“下一步”会回到路径。</translation>
    </message>
    <message>
        <source>Path step %1/%2: %3 min · %4 min done, %5 min left</source>
        <translation>路径第 %1/%2 步：%3 分钟 · 已用 %4 分钟 · 剩 %5 分钟</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>The name holds bytes that are not UTF-8 (shown as �); they cannot be written back unchanged, so the file would get another name. Choose a name in UTF-8.</source>
        <translation>该名称包含非 UTF-8 字节（显示为 �）；它们无法原样写回，文件会得到另一个名称。请使用 UTF-8 名称。</translation>
    </message>
    <message>
        <source>no cost model</source>
        <translation>无代价模型</translation>
    </message>
    <message>
        <source>attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>FFN</source>
        <translation>FFN</translation>
    </message>
    <message>
        <source>block</source>
        <translation>块</translation>
    </message>
    <message>
        <source>embedding</source>
        <translation>嵌入层</translation>
    </message>
    <message>
        <source>LM head and loss</source>
        <translation>LM 头和损失</translation>
    </message>
    <message>
        <source>%1: forward %2 ms (without grad %3 ms), backward %4 ms (%5 ms with kept from the first forward); output %6, kept for backward %7</source>
        <translation>%1：前向 %2 ms（不求梯度 %3 ms），反向 %4 ms（利用首次前向保留值时 %5 ms）；输出 %6，为反向保留 %7</translation>
    </message>
    <message>
        <source>Invalid configuration</source>
        <translation>配置无效</translation>
    </message>
    <message>
        <source>Invalid strategy</source>
        <translation>策略无效</translation>
    </message>
    <message>
        <source>Not enough memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <source>Sweep failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>ok (%1)</source>
        <translation>通过 (%1)</translation>
    </message>
    <message>
        <source>FAILED (%1)</source>
        <translation>失败 (%1)</translation>
    </message>
    <message>
        <source>%1 k=%2</source>
        <translation>%1 k=%2</translation>
    </message>
    <message>
        <source>Activation memory ∝ %1^k: %2</source>
        <translation>激活值内存 ∝ %1^k：%2</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 于 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n other run(s) fit.</source>
        <translation>
            <numerusform>其余 %n 个运行可以放下。</numerusform>
        </translation>
    </message>
    <message>
        <source>Under the %1 memory limit, out of memory: %2. %3</source>
        <comment>on a GPU</comment>
        <translation>在 %1 的显存上限下显存不足：%2。%3</translation>
    </message>
    <message>
        <source>Under the %1 memory limit, out of memory: %2. %3</source>
        <comment>on the CPU</comment>
        <translation>在 %1 的内存上限下内存不足：%2。%3</translation>
    </message>
    <message>
        <source>Out of memory: %1. %2</source>
        <comment>on a GPU</comment>
        <translation>显存不足：%1。%2</translation>
    </message>
    <message>
        <source>Out of memory: %1. %2</source>
        <comment>on the CPU</comment>
        <translation>内存不足：%1。%2</translation>
    </message>
    <message>
        <source>, </source>
        <comment>between the runs that ran out of memory</comment>
        <translation>；</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>注：%1</translation>
    </message>
    <message>
        <source>BELOW the optimal curve: %1 (the planner or cost model is wrong)</source>
        <translation>低于最优曲线：%1（规划器或代价模型有误）</translation>
    </message>
    <message>
        <source>Hand-written: %1 on the optimal curve, %2 above it</source>
        <translation>手写策略：%1 个在最优曲线上，%2 个在其上方</translation>
    </message>
    <message>
        <source> (%1 farthest: optimal is %2 % faster at its peak)</source>
        <translation>（%1 最远：在其峰值下最优调度快 %2 %）</translation>
    </message>
    <message>
        <source>Measuring the cost model for the Pareto curve…</source>
        <translation>正在为帕累托曲线测量代价模型…</translation>
    </message>
    <message numerus="yes">
        <source>Preparing a scaling sweep over %n size(s)…</source>
        <translation>
            <numerusform>正在准备 %n 个取值的规模扫描…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Preparing %n strategie(s)…</source>
        <translation>
            <numerusform>正在准备 %n 个策略…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Cancelled after %n run(s), %1</source>
        <translation>
            <numerusform>完成 %n 个运行后已取消，%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Sweep finished: %n run(s) in %1</source>
        <translation>
            <numerusform>扫描完成：%n 个运行，用时 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>default</source>
        <translation>默认</translation>
    </message>
    <message>
        <source>Checkpoint Lab</source>
        <translation>Checkpoint Lab</translation>
    </message>
    <message>
        <source>Qt</source>
        <translation>Qt</translation>
    </message>
    <message>
        <source> (built with %1)</source>
        <translation>（编译时版本 %1）</translation>
    </message>
    <message>
        <source>LibTorch</source>
        <translation>LibTorch</translation>
    </message>
    <message>
        <source> with CUDA</source>
        <translation>，支持 CUDA</translation>
    </message>
    <message>
        <source>, CPU only</source>
        <translation>，仅 CPU</translation>
    </message>
    <message>
        <source>BLAS</source>
        <translation>BLAS</translation>
    </message>
    <message>
        <source>BLAS kernels</source>
        <translation>BLAS 内核</translation>
    </message>
    <message>
        <source>%1, chosen by Checkpoint Lab instead of OpenBLAS&apos;s generic %2</source>
        <translation>%1，由 Checkpoint Lab 选用，替代 OpenBLAS 的通用 %2 内核</translation>
    </message>
    <message>
        <source>%1, from OPENBLAS_CORETYPE</source>
        <translation>%1，来自 OPENBLAS_CORETYPE</translation>
    </message>
    <message>
        <source>%1, from OPENBLAS_CORETYPE (generic: this CPU has %2)</source>
        <translation>%1，来自 OPENBLAS_CORETYPE（通用内核：本机 CPU 支持 %2）</translation>
    </message>
    <message>
        <source>%1, detected by OpenBLAS</source>
        <translation>%1，由 OpenBLAS 自动检测选定</translation>
    </message>
    <message>
        <source>%1, detected by OpenBLAS (generic: this CPU has %2)</source>
        <translation>%1，由 OpenBLAS 自动检测选定（通用内核：本机 CPU 支持 %2）</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Cannot write %1.

%2

Nothing was written.</source>
        <translation>无法写入 %1。

%2

未写入任何内容。</translation>
    </message>
    <message>
        <source>No predictions for runs that start with kept gradients: the cost model replays a step that starts without them.</source>
        <translation>带着旧梯度开始的运行不做预测：成本模型重放的是不带梯度开始的一步。</translation>
    </message>
</context>
<context>
    <name>SourceText</name>
    <message>
        <source>%1 · %2</source>
        <comment>a run&apos;s strategy and the machine of its file</comment>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a file&apos;s machine and one of its notes</comment>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>StepPlayback</name>
    <message>
        <source>forward of the LM head: the final norm and the LM head turn the last block&apos;s output into logits over the vocabulary, and the loss is their cross-entropy against the next tokens</source>
        <translation>LM 头的前向：最终归一化和 LM 头把最后一个块的输出变成词表上的 logits，损失是它们对下一个词元的交叉熵</translation>
    </message>
    <message>
        <source>forward of the embedding: each token id picks its row of the embedding table, the first block&apos;s input</source>
        <translation>嵌入层的前向：每个词元 id 取出嵌入表中的对应行，作为第一个块的输入</translation>
    </message>
    <message>
        <source>loss: cross-entropy of the logits against the next tokens; the backward pass starts next</source>
        <translation>损失：logits 对下一个词元的交叉熵；接下来开始反向传播</translation>
    </message>
    <message>
        <source>backward of the LM head: recomputing a chunk&apos;s logits from the last block&apos;s output</source>
        <translation>LM 头的反向：从最后一个块的输出重计算一个分块的 logits</translation>
    </message>
    <message>
        <source>backward of the LM head: gradients through the logits just recomputed, into the last block&apos;s output and the head&apos;s weight</source>
        <translation>LM 头的反向：梯度经过刚重计算的 logits，传到最后一个块的输出和头的权重</translation>
    </message>
    <message>
        <source>backward of the LM head: gradients of the logits into the last block&apos;s output and the head&apos;s weight</source>
        <translation>LM 头的反向：logits 的梯度传到最后一个块的输出和头的权重</translation>
    </message>
    <message>
        <source>backward of the embedding: each token&apos;s gradient is added to its row of the embedding table&apos;s gradient</source>
        <translation>嵌入层的反向：每个词元的梯度加到嵌入表梯度的对应行上</translation>
    </message>
    <message>
        <source>forward of block %1: its activations are kept for the backward pass</source>
        <translation>块 %1 的前向：它的激活值保留到反向传播</translation>
    </message>
    <message>
        <source>forward of block %1: the checkpointed part of the block frees its activations, the rest are kept for the backward pass</source>
        <translation>块 %1 的前向：块内做了检查点的部分释放激活值，其余部分保留到反向传播</translation>
    </message>
    <message>
        <source>forward of block %1: its input is stored as a checkpoint; its activations are freed and will be recomputed in the backward pass</source>
        <translation>块 %1 的前向：它的输入作为检查点保存；激活值被释放，将在反向传播中重计算</translation>
    </message>
    <message>
        <source>forward of block %1: inside the checkpoint that starts at block %2, its activations are freed and will be recomputed in the backward pass</source>
        <translation>块 %1 的前向：位于从块 %2 开始的检查点内，激活值被释放，将在反向传播中重计算</translation>
    </message>
    <message>
        <source>recomputing blocks %1 from the stored input of block %2</source>
        <translation>从块 %2 保存的输入重计算块 %1</translation>
    </message>
    <message>
        <source>backward of block %1: recomputing block %1 from its stored input</source>
        <translation>块 %1 的反向：从它保存的输入重计算块 %1</translation>
    </message>
    <message>
        <source>backward of block %1: recomputing blocks %2 from the stored input of block %3</source>
        <translation>块 %1 的反向：从块 %3 保存的输入重计算块 %2</translation>
    </message>
    <message>
        <source>backward of block %1: gradients through the activations just recomputed (blocks %2)</source>
        <translation>块 %1 的反向：沿刚重计算出的激活值（块 %2）求梯度</translation>
    </message>
    <message>
        <source>backward of block %1: its activations were recomputed during the backward of block %2 and kept until now</source>
        <translation>块 %1 的反向：它的激活值在块 %2 的反向中重计算，并一直保留到现在</translation>
    </message>
    <message>
        <source>backward of block %1: its activations were kept since the forward pass</source>
        <translation>块 %1 的反向：它的激活值从前向起一直保留着</translation>
    </message>
    <message>
        <source>optimizer: the parameters are updated with their gradients</source>
        <translation>优化器：用梯度更新参数</translation>
    </message>
    <message>
        <source>the step ran out of memory here</source>
        <translation>这一步在此处显存不足</translation>
    </message>
    <message>
        <source>the step begins: parameters, input and optimizer state are already allocated</source>
        <translation>一步开始：参数、输入和优化器状态已经分配</translation>
    </message>
    <message>
        <source>the step is over</source>
        <translation>这一步结束了</translation>
    </message>
    <message>
        <source>loss: the output of the last block is summed into the loss; the backward pass starts next</source>
        <translation>损失：最后一个块的输出求和得到损失；接下来开始反向传播</translation>
    </message>
</context>
<context>
    <name>TimeText</name>
    <message>
        <source>%1 [%2, %3]%4</source>
        <comment>a median step time and its interval</comment>
        <translation>%1 [%2, %3]%4</translation>
    </message>
    <message>
        <source>Not timed</source>
        <translation>未计时</translation>
    </message>
    <message>
        <source>Median of the timed repeats (no samples kept in this file)</source>
        <translation>计时重复的中位数（此文件未保存样本）</translation>
    </message>
    <message>
        <source>Median %1 ms; [%2, %3] is the 95% distribution-free interval of the median (order statistics) from %4 samples taken in interleaved rounds, one step of every strategy per round</source>
        <translation>中位数 %1 ms；[%2, %3] 是中位数的 95% 无分布假设区间（顺序统计量），来自交错轮次中取得的 %4 个样本，每轮每个策略各跑一步</translation>
    </message>
    <message>
        <source>Median %1 ms; * [%2, %3] is only the min–max range of %4 samples: fewer than %5 give no 95% interval of the median. Set more repeats or Repeats: auto</source>
        <translation>中位数 %1 ms；* [%2, %3] 只是 %4 个样本的最小–最大范围：少于 %5 个样本无法给出中位数的 95% 区间。请增加重复次数，或把重复次数设为自动</translation>
    </message>
    <message>
        <source>Coefficient of variation %1 %, fastest repeat %2 ms</source>
        <translation>变异系数 %1 %，最快的一次 %2 ms</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>≈ 0 [%1, %2] %</source>
        <comment>time added within noise, with its range</comment>
        <translation>≈ 0 [%1, %2] %</translation>
    </message>
    <message>
        <source>%1 [%2, %3] %</source>
        <comment>time added with its range</comment>
        <translation>%1 [%2, %3] %</translation>
    </message>
    <message>
        <source>Median step time against none&apos;s, in % of none&apos;s median</source>
        <translation>每步时间中位数相对 none 的变化，以 none 中位数的 % 表示</translation>
    </message>
    <message>
        <source>[%1, %2] % runs from this run&apos;s interval low less none&apos;s high to its high less none&apos;s low (in % of none&apos;s median)</source>
        <translation>[%1, %2] % 的下端是此运行区间下端减去 none 区间上端，上端是此运行区间上端减去 none 区间下端（以 none 中位数的 % 表示）</translation>
    </message>
    <message>
        <source>Within noise: the step-time intervals of this run and none overlap, so whether it is slower or faster is not known (the medians differ by %1 %).
%2</source>
        <translation>在噪声范围内：此运行与 none 的每步时间区间重叠，因此无法判断它更慢还是更快（中位数相差 %1 %）。
%2</translation>
    </message>
    <message>
        <source>Outside noise: the step-time intervals of this run and none do not overlap.
%1</source>
        <translation>超出噪声范围：此运行与 none 的每步时间区间不重叠。
%1</translation>
    </message>
    <message>
        <source>Memory saved % per time added % (higher is better)</source>
        <translation>每增加 1% 时间节省的内存 %（越高越好）</translation>
    </message>
    <message>
        <source>No ratio: the time added is within noise (the step-time intervals overlap none&apos;s), and a ratio over a time that may be 0 means nothing</source>
        <translation>不计算比值：增加的时间在噪声范围内（每步时间区间与 none 的重叠），除以一个可能为 0 的时间没有意义</translation>
    </message>
    <message>
        <source>No ratio: this run adds no time against none</source>
        <translation>不计算比值：此运行相对 none 没有增加时间</translation>
    </message>
    <message>
        <source>CV of %1 %2 %</source>
        <translation>%1 的变异系数 %2 %</translation>
    </message>
    <message>
        <source>CPU steal %1 %</source>
        <translation>CPU 被占用（steal）%1 %</translation>
    </message>
    <message>
        <source>OpenBLAS ran its generic %1 kernels on a CPU with %2: matmuls are several times slower than this machine can do</source>
        <translation>OpenBLAS 在支持 %2 的 CPU 上运行了通用的 %1 内核：矩阵乘法比本机能达到的速度慢数倍</translation>
    </message>
    <message numerus="yes">
        <source>load %1 on %n CPU(s)</source>
        <translation>
            <numerusform>%n 个 CPU 上负载 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Noisy machine: %1</source>
        <translation>机器噪声大：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n interleaved round(s) in %1</source>
        <translation>
            <numerusform>%1 内完成 %n 个交错轮次</numerusform>
        </translation>
    </message>
    <message>
        <source>%1; adaptive repeats stopped by precision: every median&apos;s interval within ±%2 %</source>
        <translation>%1；自适应重复因精度达标而停止：每个中位数的区间都在 ±%2 % 以内</translation>
    </message>
    <message>
        <source>%1; adaptive repeats stopped by the %2 time limit before every median&apos;s interval was within ±%3 %</source>
        <translation>%1；自适应重复因 %2 的时间上限而停止，此时并非每个中位数的区间都在 ±%3 % 以内</translation>
    </message>
    <message>
        <source>%1; adaptive repeats stopped by the limit of %2 rounds</source>
        <translation>%1；自适应重复因 %2 轮的上限而停止</translation>
    </message>
    <message>
        <source>Cancelled before a timed round ended: memory measured, times not</source>
        <translation>在一轮计时结束前已取消：内存已测量，时间未测量</translation>
    </message>
    <message>
        <source>Cancelled after %1: times are over those rounds</source>
        <translation>在%1后取消：时间基于这些轮次</translation>
    </message>
</context>
<context>
    <name>ckptlab</name>
    <message>
        <source>%1 of the embedding</source>
        <extracomment>%1 is a phase of the step (forward, backward, ...)</extracomment>
        <translation>嵌入层的%1</translation>
    </message>
    <message>
        <source>%1 of the LM head</source>
        <extracomment>%1 is a phase of the step (forward, backward, ...); the LM head is the chain&apos;s last part</extracomment>
        <translation>LM 头的%1</translation>
    </message>
    <message>
        <source>memory limit %1</source>
        <translation>内存上限 %1</translation>
    </message>
    <message>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <source>optimizer step</source>
        <translation>优化器步</translation>
    </message>
    <message>
        <source>the start of the step</source>
        <translation>训练步开始时</translation>
    </message>
    <message>
        <source>%1 of block %2</source>
        <extracomment>%1 is a phase of the step (forward, backward, ...), %2 a block number</extracomment>
        <translation>第 %2 块的%1</translation>
    </message>
    <message>
        <source>out of memory at %1</source>
        <translation>在%1时显存不足</translation>
    </message>
    <message>
        <source>%1 ran out of memory at %2, %3 into the step:</source>
        <translation>%1 在%2时显存不足（训练步开始后 %3）：</translation>
    </message>
    <message>
        <source>it tried to allocate %1 with %2 allocated, over the %3 limit.</source>
        <translation>已分配 %2 时尝试再分配 %1，超过了 %3 的上限。</translation>
    </message>
    <message>
        <source>it tried to allocate %1 with %2 allocated, and the allocator failed.</source>
        <translation>已分配 %2 时尝试再分配 %1，分配器失败。</translation>
    </message>
    <message>
        <source>Peak %1 above the step&apos;s start: the highest it reached before it stopped.</source>
        <translation>峰值比训练步开始时高 %1：这是停止前达到的最高值。</translation>
    </message>
    <message>
        <source>Not timed; gradients not checked.</source>
        <translation>未计时；未校验梯度。</translation>
    </message>
    <message>
        <source>memory limit %1 (%2 for the step)</source>
        <translation>内存上限 %1（训练步可用 %2）</translation>
    </message>
    <message>
        <source>allocation that did not fit</source>
        <translation>放不下的分配</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <extracomment>a run&apos;s name, then where it ran out of memory</extracomment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Drawn at its partial peak and its predicted step time (%1), not a measured point.</source>
        <translation>按其不完整的峰值和预测的每步时间 (%1) 绘制，并非实测点。</translation>
    </message>
    <message>
        <source>Drawn at its partial peak on the time axis: it has no step time.</source>
        <translation>按其不完整的峰值画在时间轴上：它没有每步时间。</translation>
    </message>
    <message>
        <source>device capacity: limit %1 (%2 for the step)</source>
        <translation>设备容量：上限 %1（训练步可用 %2）</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::AboutDialog</name>
    <message>
        <source>About Checkpoint Lab</source>
        <translation>关于 Checkpoint Lab</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Checkpoint Lab %1&lt;/h2&gt;&lt;p&gt;Explore gradient checkpointing with real LibTorch measurements: what recomputing activations saves in memory and costs in time.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Checkpoint Lab %1&lt;/h2&gt;&lt;p&gt;用真实的 LibTorch 测量来探索梯度检查点：重计算激活值能节省多少内存，又要花多少时间。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::ChartExporter</name>
    <message>
        <source>Current Chart as &amp;PNG…</source>
        <translation>当前图表导出为 &amp;PNG…</translation>
    </message>
    <message>
        <source>Current Chart as PNG (&amp;2×)…</source>
        <translation>当前图表导出为 PNG (&amp;2×)…</translation>
    </message>
    <message>
        <source>Current Chart as &amp;SVG…</source>
        <translation>当前图表导出为 &amp;SVG…</translation>
    </message>
    <message>
        <source>&amp;All Charts to Folder…</source>
        <translation>全部图表导出到文件夹(&amp;A)…</translation>
    </message>
    <message>
        <source>Nothing to export</source>
        <translation>没有可导出的内容</translation>
    </message>
    <message>
        <source>Run a sweep or open a results file first.</source>
        <translation>请先运行扫描或打开结果文件。</translation>
    </message>
    <message>
        <source>Cannot export chart</source>
        <translation>无法导出图表</translation>
    </message>
    <message>
        <source>Cannot export charts</source>
        <translation>无法导出图表</translation>
    </message>
    <message>
        <source>Cannot export into %1.

%2

Nothing was written.</source>
        <translation>无法导出到 %1。

%2

未写入任何内容。</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>无法创建文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot export the schedules</source>
        <translation>无法导出调度图</translation>
    </message>
    <message>
        <source>SVG (*.svg)</source>
        <translation>SVG (*.svg)</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>Export %1</source>
        <translation>导出 %1</translation>
    </message>
    <message>
        <source>Export all charts (PNG 2× and SVG) into</source>
        <translation>将全部图表（PNG 2× 和 SVG）导出到</translation>
    </message>
    <message>
        <source>Charts exported</source>
        <translation>图表已导出</translation>
    </message>
    <message>
        <source>Wrote %1 files to %2.</source>
        <translation>已将 %1 个文件写入 %2。</translation>
    </message>
    <message>
        <source>%1; strategies: %2</source>
        <translation>%1；策略：%2</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::ChartsPanel</name>
    <message>
        <source>median of the repeats</source>
        <translation>重复的中位数</translation>
    </message>
    <message>
        <source>fastest repeat</source>
        <translation>最快的一次</translation>
    </message>
    <message>
        <source>On a shared machine the fastest repeat is the one least disturbed by other work; the median is the headline number</source>
        <translation>在共享机器上，最快的一次受其他任务干扰最少；中位数是主要指标</translation>
    </message>
    <message>
        <source>Step time:</source>
        <translation>每步时间：</translation>
    </message>
    <message>
        <source>Activation memory</source>
        <translation>激活值内存</translation>
    </message>
    <message>
        <source>Peak memory</source>
        <translation>峰值内存</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <source>Plot:</source>
        <translation>绘制：</translation>
    </message>
    <message>
        <source>Error bars: the 95% interval of each median</source>
        <translation>误差棒：每个中位数的 95% 区间</translation>
    </message>
    <message>
        <source>No error bars: the interval belongs to the median, not to the fastest repeat</source>
        <translation>没有误差棒：区间属于中位数，而不是最快的一次</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::ChartsPlayback</name>
    <message>
        <source>%1 at %2</source>
        <translation>%1 于 %2</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::CurveSweepPanel</name>
    <message>
        <source>Pareto curve</source>
        <translation>帕累托曲线</translation>
    </message>
    <message>
        <source>Scaling sweep</source>
        <translation>规模扫描</translation>
    </message>
    <message>
        <source>Run optimal schedules at evenly spread memory budgets, from the smallest feasible peak to the no-checkpoint peak, beside the checked hand-written strategies (Ctrl+Shift+R)</source>
        <translation>在从最小可行峰值到无检查点峰值之间均匀分布的内存预算下运行最优调度，并与勾选的手写策略对比 (Ctrl+Shift+R)</translation>
    </message>
    <message>
        <source> budgets</source>
        <translation> 个预算</translation>
    </message>
    <message>
        <source>How many optimal schedules the Pareto curve runs (%1–%2)</source>
        <translation>帕累托曲线运行多少个最优调度（%1–%2）</translation>
    </message>
    <message>
        <source>e.g. 4,8,16,32</source>
        <translation>例如 4,8,16,32</translation>
    </message>
    <message>
        <source>Run the checked strategies at every value and fit how activation memory, peak and step time grow (log-log exponent)</source>
        <translation>在每个取值下运行勾选的策略，并拟合激活值内存、峰值和每步时间的增长（双对数指数）</translation>
    </message>
    <message>
        <source>%1 or more values of the varied dimension, comma-separated</source>
        <translation>所变化维度的 %1 个或更多取值，用逗号分隔</translation>
    </message>
    <message>
        <source>Scaling values: &quot;%1&quot; is not a whole number. Give whole numbers of %2, e.g. 4,8,16,32.</source>
        <translation>规模扫描取值：“%1”不是整数。请给出 %2 的整数取值，例如 4,8,16,32。</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::DocumentBusy</name>
    <message>
        <source>Open Results</source>
        <translation>打开结果</translation>
    </message>
    <message>
        <source>Add Results File</source>
        <translation>添加结果文件</translation>
    </message>
    <message>
        <source>Save Results</source>
        <translation>保存结果</translation>
    </message>
    <message>
        <source>Run Sweep</source>
        <translation>运行扫描</translation>
    </message>
    <message>
        <source>Run Pareto Curve</source>
        <translation>运行帕累托曲线</translation>
    </message>
    <message>
        <source>Run Scaling Sweep</source>
        <translation>运行规模扫描</translation>
    </message>
    <message>
        <source>Lesson Step</source>
        <translation>课程步骤</translation>
    </message>
    <message>
        <source>Run Live</source>
        <translation>现场运行</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>A results file is being opened. Wait until it is on screen, then try again.</source>
        <translation>正在打开结果文件。请等它显示出来后再试。</translation>
    </message>
    <message>
        <source>The results are being saved. Wait until they are saved, then try again.</source>
        <translation>正在保存结果。请等保存完成后再试。</translation>
    </message>
    <message>
        <source>A sweep is running and its results are arriving on screen. Wait for it to finish, or cancel it (Esc), then try again.</source>
        <translation>扫描正在运行，结果正陆续显示。请等它结束，或取消它（Esc），然后再试。</translation>
    </message>
    <message>
        <source>A lesson step is being opened. Wait until it is on screen, then try again.</source>
        <translation>正在打开课程步骤。请等它显示出来后再试。</translation>
    </message>
    <message>
        <source>The window is changing its language. Wait until it is done, then try again.</source>
        <translation>窗口正在切换语言。请等切换完成后再试。</translation>
    </message>
    <message>
        <source>The window is about to close. Answer its question first, then try again.</source>
        <translation>窗口即将关闭。请先回答它的提问，然后再试。</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::FileController</name>
    <message>
        <source>Checkpoint Lab results (*.json);;All files (*)</source>
        <translation>Checkpoint Lab 结果 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open results</source>
        <translation>无法打开结果</translation>
    </message>
    <message>
        <source>%1

%2</source>
        <translation>%1

%2</translation>
    </message>
    <message>
        <source>Nothing to save</source>
        <translation>没有可保存的内容</translation>
    </message>
    <message>
        <source>Run a sweep or open a results file first.</source>
        <translation>请先运行扫描或打开结果文件。</translation>
    </message>
    <message>
        <source>Save results</source>
        <translation>保存结果</translation>
    </message>
    <message>
        <source>Checkpoint Lab results (*.json)</source>
        <translation>Checkpoint Lab 结果 (*.json)</translation>
    </message>
    <message>
        <source>Cannot save results</source>
        <translation>无法保存结果</translation>
    </message>
    <message>
        <source>Export summary as CSV</source>
        <translation>将摘要导出为 CSV</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>Cannot export CSV</source>
        <translation>无法导出 CSV</translation>
    </message>
    <message>
        <source>Export Chrome trace (open in Perfetto)</source>
        <translation>导出 Chrome 跟踪（在 Perfetto 中打开）</translation>
    </message>
    <message>
        <source>Chrome trace (*.json)</source>
        <translation>Chrome 跟踪 (*.json)</translation>
    </message>
    <message>
        <source>Cannot export trace</source>
        <translation>无法导出跟踪</translation>
    </message>
    <message>
        <source>Open results (several to compare them)</source>
        <translation>打开结果（可选多个以进行比较）</translation>
    </message>
    <message>
        <source>Cannot open these files together</source>
        <translation>无法同时打开这些文件</translation>
    </message>
    <message>
        <source>Add results to compare</source>
        <translation>添加要比较的结果</translation>
    </message>
    <message>
        <source>Save the results first</source>
        <translation>请先保存结果</translation>
    </message>
    <message>
        <source>Adding a results file compares files side by side, and the results on screen are not saved in one. Save them first, then add the files to compare them with.</source>
        <translation>添加结果文件是将多个文件并排比较，而屏幕上的结果尚未保存为文件。请先保存它们，再添加要与之比较的文件。</translation>
    </message>
    <message>
        <source>Cannot add these files</source>
        <translation>无法添加这些文件</translation>
    </message>
    <message>
        <source>Replace the results?</source>
        <translation>替换结果？</translation>
    </message>
    <message>
        <source>The results on screen were measured here and are not saved. Opening replaces them.

Replace them anyway?</source>
        <translation>屏幕上的结果是在本机测得的，尚未保存。打开文件会替换它们。

仍要替换吗？</translation>
    </message>
    <message>
        <source>Several files are open</source>
        <translation>已打开多个文件</translation>
    </message>
    <message>
        <source>The results on screen come from several files, each of them saved already. To save one under another name, open it alone; to keep the comparison, use Export Summary as CSV.</source>
        <translation>屏幕上的结果来自多个文件，每个文件都已保存。若要以其他名称保存其中一个，请单独打开它；若要保留这份比较，请使用“将摘要导出为 CSV”。</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::FitInputs</name>
    <message>
        <source>Open config…</source>
        <translation>打开配置文件…</translation>
    </message>
    <message>
        <source>A model shipped with the lab, or a Hugging Face config.json</source>
        <translation>随本实验室提供的模型，或 Hugging Face 的 config.json</translation>
    </message>
    <message>
        <source>Tokens per sequence</source>
        <translation>每个序列的词元数</translation>
    </message>
    <message>
        <source>Sequences per step</source>
        <translation>每个训练步的序列数</translation>
    </message>
    <message>
        <source>Set from the model&apos;s torch_dtype when a model is chosen</source>
        <translation>选择模型时按其 torch_dtype 设定</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <extracomment>a GPU capacity preset and GPUs that have it: &quot;80GB (A100 80GB, H100 80GB)&quot;</extracomment>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>GB = 10^9 bytes, as GPUs are sold</source>
        <translation>GB = 10^9 字节，与 GPU 标称容量一致</translation>
    </message>
    <message>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Sequence</source>
        <translation>序列长度(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Batch</source>
        <translation>批大小(&amp;B)</translation>
    </message>
    <message>
        <source>GPU &amp;capacity</source>
        <translation>GPU 容量(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Precision</source>
        <translation>精度(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Optimizer</source>
        <translation>优化器(&amp;O)</translation>
    </message>
    <message>
        <source>C&amp;ustom size</source>
        <translation>自定义容量(&amp;U)</translation>
    </message>
    <message>
        <source>Open a model&apos;s config.json</source>
        <translation>打开模型的 config.json</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Cannot use this model</source>
        <translation>无法使用此模型</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>没有模型</translation>
    </message>
    <message>
        <source>Choose a model, or open a model&apos;s config.json.</source>
        <translation>请选择一个模型，或打开模型的 config.json。</translation>
    </message>
    <message>
        <source>The model is still being read; try again in a moment.</source>
        <translation>仍在读取模型，请稍后再试。</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::FitPanel</name>
    <message>
        <source>P&amp;lan</source>
        <translation>规划(&amp;L)</translation>
    </message>
    <message>
        <source>Reading the model…</source>
        <translation>正在读取模型…</translation>
    </message>
    <message>
        <source>Choose a model, or open a model&apos;s config.json.</source>
        <translation>请选择一个模型，或打开模型的 config.json。</translation>
    </message>
    <message>
        <source>One layer needs %1 to measure, %2 are available here: too much to measure on this machine. Choose a smaller model, or plan it on a machine with more memory.</source>
        <translation>测量一层需要 %1，本机可用 %2：超出了本机能测量的范围。请选择更小的模型，或在内存更大的机器上规划。</translation>
    </message>
    <message>
        <source>One layer needs %1 to measure, %2 are available here.</source>
        <translation>测量一层需要 %1，本机可用 %2。</translation>
    </message>
    <message>
        <source>One layer needs %1 to measure; the memory available here is unknown.</source>
        <translation>测量一层需要 %1；本机可用内存未知。</translation>
    </message>
    <message>
        <source>Cannot measure this model here</source>
        <translation>无法在本机测量此模型</translation>
    </message>
    <message>
        <source>Measure one layer at a few small shapes (a minute or more the first time), then predict every strategy at the real size</source>
        <translation>先在几个小形状上测量一层（首次需要一分钟或更久），再预测每种策略在真实规模下的表现</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Choose a model and a GPU, then Plan</source>
        <translation>选择模型和 GPU，然后点击“规划”</translation>
    </message>
    <message>
        <source>Select a strategy to see its predicted timeline</source>
        <translation>选择一种策略以查看其预测的时间线</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <source>Chart as &amp;PNG…</source>
        <translation>图表导出为 &amp;PNG…</translation>
    </message>
    <message>
        <source>Chart as PNG (&amp;2×)…</source>
        <translation>图表导出为 PNG（&amp;2×）…</translation>
    </message>
    <message>
        <source>Chart as &amp;SVG…</source>
        <translation>图表导出为 &amp;SVG…</translation>
    </message>
    <message>
        <source>Table as &amp;CSV…</source>
        <translation>表格导出为 &amp;CSV…</translation>
    </message>
    <message>
        <source>At the peak</source>
        <translation>峰值时</translation>
    </message>
    <message>
        <source>Predicted timeline</source>
        <translation>预测的时间线</translation>
    </message>
    <message>
        <source>Planning failed.</source>
        <translation>规划失败。</translation>
    </message>
    <message>
        <source>Cannot plan this model</source>
        <translation>无法规划此模型</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation>正在开始…</translation>
    </message>
    <message>
        <source>Measuring one layer at small shapes: %1 of %2 (%3)</source>
        <translation>正在小形状上测量一层：第 %1 个，共 %2 个（%3）</translation>
    </message>
    <message>
        <source>Planning at the real size: %1 of %2 (%3)</source>
        <translation>正在按真实规模规划：第 %1 个，共 %2 个（%3）</translation>
    </message>
    <message>
        <source>Measured and planned in %1 s.</source>
        <translation>测量和规划用时 %1 秒。</translation>
    </message>
    <message>
        <source>Planned in %1 s with the fit measured before.</source>
        <translation>沿用之前测得的拟合，规划用时 %1 秒。</translation>
    </message>
    <message>
        <source>No predicted timeline for %1: %2</source>
        <translation>%1 没有预测的时间线：%2</translation>
    </message>
    <message>
        <source>%1; capacity %2; predicted at the real size from a fit measured on this machine</source>
        <translation>%1；容量 %2；由本机测得的拟合按真实规模预测</translation>
    </message>
    <message>
        <source>Cannot export chart</source>
        <translation>无法导出图表</translation>
    </message>
    <message>
        <source>Cannot export CSV</source>
        <translation>无法导出 CSV</translation>
    </message>
    <message>
        <source>Nothing to export</source>
        <translation>没有可导出的内容</translation>
    </message>
    <message>
        <source>Plan a model first.</source>
        <translation>请先规划一个模型。</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>SVG (*.svg)</source>
        <translation>SVG (*.svg)</translation>
    </message>
    <message>
        <source>PNG (*.png)</source>
        <translation>PNG (*.png)</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::FitWorker</name>
    <message>
        <source>%1 cannot be used.

%2</source>
        <translation>无法使用 %1。

%2</translation>
    </message>
    <message>
        <source>%1 cannot be used because of its field %2.

%3</source>
        <translation>无法使用 %1，问题出在字段 %2。

%3</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::LessonMode</name>
    <message>
        <source>Lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>No lessons</source>
        <translation>没有课程</translation>
    </message>
    <message>
        <source>The lessons could not be read:
%1</source>
        <translation>无法读取课程：
%1</translation>
    </message>
    <message>
        <source>Unknown lesson</source>
        <translation>未知课程</translation>
    </message>
    <message>
        <source>There is no lesson &quot;%1&quot;. The lessons are:
%2</source>
        <translation>没有课程“%1”。现有课程：
%2</translation>
    </message>
    <message>
        <source>Replace the results?</source>
        <translation>替换结果？</translation>
    </message>
    <message>
        <source>The results on screen were measured here and are not saved. The lesson step replaces them.

Replace them anyway?</source>
        <translation>屏幕上的结果是在本机测量的，尚未保存。课程步骤会替换它们。

仍要替换吗？</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Tutorial: “%1”</source>
        <translation>教程原文：“%1”</translation>
    </message>
    <message>
        <source>Tutorial: “%1” (%2)</source>
        <translation>教程原文：“%1”（%2）</translation>
    </message>
    <message>
        <source>&amp;Open Lesson…</source>
        <translation>打开课程(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Previous Step</source>
        <translation>上一步(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Next Step</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>Run &amp;Live</source>
        <translation>现场运行(&amp;L)</translation>
    </message>
    <message>
        <source>Measure the lesson&apos;s step again on this machine</source>
        <translation>在本机重新测量课程的这一步</translation>
    </message>
    <message>
        <source>Export &amp;Handout (PDF)…</source>
        <translation>导出讲义 (PDF)(&amp;H)…</translation>
    </message>
    <message>
        <source>&amp;Lesson</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lesson:</source>
        <translation>课程：</translation>
    </message>
    <message>
        <source>Export handout</source>
        <translation>导出讲义</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>Cannot export the handout</source>
        <translation>无法导出讲义</translation>
    </message>
    <message>
        <source>Handout written to %1</source>
        <translation>讲义已写入 %1</translation>
    </message>
    <message>
        <source>Cannot open lesson &quot;%1&quot;: %2</source>
        <translation>无法打开课程“%1”：%2</translation>
    </message>
    <message>
        <source>There is no lesson &quot;%1&quot;. The lessons are: %2</source>
        <translation>没有课程“%1”。现有课程：%2</translation>
    </message>
    <message>
        <source>Show or Hide the &amp;Answer</source>
        <translation>显示或隐藏答案(&amp;A)</translation>
    </message>
    <message>
        <source>Some lessons are left out</source>
        <translation>部分课程未载入</translation>
    </message>
    <message>
        <source>These lesson files could not be read and are left out; the other lessons work:
%1</source>
        <translation>以下课程文件无法读取，已略过；其他课程可以正常使用：
%1</translation>
    </message>
    <message>
        <source>There is no lesson &quot;%1&quot; that could be read. The lessons are: %2. These lesson files could not be read:
%3</source>
        <translation>没有可读取的课程“%1”。现有课程：%2。以下课程文件无法读取：
%3</translation>
    </message>
    <message>
        <source>Predict first: the chart appears once the class has made its prediction in the Lesson panel, or skipped it.</source>
        <translation>请先预测：全班在课程面板中做出预测（或跳过）后才显示图表。</translation>
    </message>
    <message>
        <source>The measured numbers appear after the prediction.</source>
        <translation>预测之后才显示测量数值。</translation>
    </message>
    <message>
        <source>Prediction:</source>
        <translation>预测对照：</translation>
    </message>
    <message>
        <source>Class P&amp;ath…</source>
        <translation>课堂路径(&amp;A)…</translation>
    </message>
    <message>
        <source>Follow a class path through the lessons</source>
        <translation>沿课堂路径经过各课程</translation>
    </message>
    <message>
        <source>Class path</source>
        <translation>课堂路径</translation>
    </message>
    <message>
        <source>Path:</source>
        <translation>路径：</translation>
    </message>
    <message>
        <source>No path (free)</source>
        <translation>不按路径（自由选择）</translation>
    </message>
    <message>
        <source>&amp;Print Class Plan…</source>
        <translation>打印课堂教案(&amp;P)…</translation>
    </message>
    <message>
        <source>The chosen path&apos;s class plan as a PDF (or Markdown)</source>
        <translation>所选路径的课堂教案，存为 PDF（或 Markdown）</translation>
    </message>
    <message>
        <source>Print class plan</source>
        <translation>打印课堂教案</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;Markdown (*.md)</source>
        <translation>PDF (*.pdf);;Markdown (*.md)</translation>
    </message>
    <message>
        <source>Cannot write the class plan</source>
        <translation>无法写入课堂教案</translation>
    </message>
    <message>
        <source>%1 could not be written.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Class plan written to %1</source>
        <translation>课堂教案已写入 %1</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::LessonPanel</name>
    <message>
        <source>&amp;Lesson:</source>
        <translation>课程(&amp;L)：</translation>
    </message>
    <message>
        <source>The previous step of the lesson (Alt+Left)</source>
        <translation>课程的上一步 (Alt+Left)</translation>
    </message>
    <message>
        <source>The next step of the lesson (Alt+Right)</source>
        <translation>课程的下一步 (Alt+Right)</translation>
    </message>
    <message>
        <source>Run live</source>
        <translation>现场运行</translation>
    </message>
    <message>
        <source>Measure this step again on this machine; the answer then uses the new results</source>
        <translation>在本机重新测量这一步；答案随后使用新的结果</translation>
    </message>
    <message>
        <source>A plan step is measured with ckptlab-cli lesson %1 --live (minutes: one layer at several shapes)</source>
        <translation>规划步骤用 ckptlab-cli lesson %1 --live 测量（需要几分钟：在几种形状下测量一层）</translation>
    </message>
    <message>
        <source>Handout…</source>
        <translation>讲义…</translation>
    </message>
    <message>
        <source>Export the lesson as a PDF handout</source>
        <translation>将课程导出为 PDF 讲义</translation>
    </message>
    <message>
        <source>No lesson open.</source>
        <translation>未打开课程。</translation>
    </message>
    <message>
        <source>Observe:</source>
        <translation>观察：</translation>
    </message>
    <message>
        <source>Question:</source>
        <translation>问题：</translation>
    </message>
    <message>
        <source>Answer:</source>
        <translation>答案：</translation>
    </message>
    <message>
        <source>Previous step</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>Next step</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Hide &amp;answer</source>
        <translation>隐藏答案(&amp;A)</translation>
    </message>
    <message>
        <source>Show &amp;answer</source>
        <translation>显示答案(&amp;A)</translation>
    </message>
    <message>
        <source>Pa&amp;th:</source>
        <translation>路径(&amp;T)：</translation>
    </message>
    <message>
        <source>Follow a class path: Previous and Next go through its lessons and steps</source>
        <translation>按课堂路径上课：上一步和下一步沿路径经过各课程和步骤</translation>
    </message>
    <message>
        <source>No path (free)</source>
        <translation>不按路径（自由选择）</translation>
    </message>
    <message>
        <source>Print plan…</source>
        <translation>打印教案…</translation>
    </message>
    <message>
        <source>The class plan of the path, as a PDF to print</source>
        <translation>该路径的课堂教案，存为可打印的 PDF</translation>
    </message>
    <message>
        <source>&amp;Predict</source>
        <translation>预测(&amp;P)</translation>
    </message>
    <message>
        <source>Commit the prediction; the chart is shown then</source>
        <translation>提交预测，随后显示图表</translation>
    </message>
    <message>
        <source>S&amp;kip</source>
        <translation>跳过(&amp;K)</translation>
    </message>
    <message>
        <source>Show the chart without a prediction</source>
        <translation>不做预测，直接显示图表</translation>
    </message>
    <message>
        <source>Quiz</source>
        <translation>小测验</translation>
    </message>
    <message>
        <source>&amp;Check</source>
        <translation>核对(&amp;C)</translation>
    </message>
    <message>
        <source>Compare the chosen answers with the measurement</source>
        <translation>将所选答案与测量结果对照</translation>
    </message>
    <message>
        <source>Predict:</source>
        <translation>预测：</translation>
    </message>
    <message>
        <source>%1. %2</source>
        <translation>%1. %2</translation>
    </message>
    <message>
        <source>The measurement does not decide this question; run the step live.</source>
        <translation>测量结果还无法判定这道题，请现场运行该步骤。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Right.&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;正确。&lt;/b&gt;%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Not answered.&lt;/b&gt; The measurement says: %1. %2</source>
        <translation>&lt;b&gt;未作答。&lt;/b&gt;测量结果是：%1。%2</translation>
    </message>
    <message>
        <source>&lt;b&gt;Not quite.&lt;/b&gt; The measurement says: %1. %2</source>
        <translation>&lt;b&gt;不对。&lt;/b&gt;测量结果是：%1。%2</translation>
    </message>
    <message>
        <source>&amp;Enlarge code…</source>
        <translation>放大代码(&amp;E)…</translation>
    </message>
    <message>
        <source>The code side by side in a large window</source>
        <translation>在大窗口中并排显示代码</translation>
    </message>
    <message>
        <source>Code side by side</source>
        <translation>并排代码</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::MainWindow</name>
    <message>
        <source>Run sweep</source>
        <translation>运行扫描</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Model and measurement</source>
        <translation>模型与测量</translation>
    </message>
    <message>
        <source>Strategies to compare</source>
        <translation>要比较的策略</translation>
    </message>
    <message>
        <source>Experiment</source>
        <translation>实验</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message numerus="yes">
        <source>Opened %1 (%n run(s))</source>
        <translation>
            <numerusform>已打开 %1（%n 个运行）</numerusform>
        </translation>
    </message>
    <message>
        <source>Checkpoint Lab</source>
        <translation>Checkpoint Lab</translation>
    </message>
    <message>
        <source>%1 — Checkpoint Lab</source>
        <translation>%1 — Checkpoint Lab</translation>
    </message>
    <message>
        <source>&amp;Open Results…</source>
        <translation>打开结果(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save Results</source>
        <translation>保存结果(&amp;S)</translation>
    </message>
    <message>
        <source>Save Results &amp;As…</source>
        <translation>结果另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Export Summary as &amp;CSV…</source>
        <translation>将摘要导出为 &amp;CSV…</translation>
    </message>
    <message>
        <source>Export Timeline as Chrome &amp;Trace…</source>
        <translation>将时间线导出为 Chrome 跟踪(&amp;T)…</translation>
    </message>
    <message>
        <source>Chrome trace JSON: open it in Perfetto or chrome://tracing</source>
        <translation>Chrome 跟踪 JSON：可在 Perfetto 或 chrome://tracing 中打开</translation>
    </message>
    <message>
        <source>&amp;Run Sweep</source>
        <translation>运行扫描(&amp;R)</translation>
    </message>
    <message>
        <source>Measure every checked strategy (Ctrl+R)</source>
        <translation>测量每个勾选的策略 (Ctrl+R)</translation>
    </message>
    <message>
        <source>Run &amp;Pareto Curve</source>
        <translation>运行帕累托曲线(&amp;P)</translation>
    </message>
    <message>
        <source>Optimal schedules across memory budgets beside the checked hand-written strategies (Ctrl+Shift+R)</source>
        <translation>不同内存预算下的最优调度，并与勾选的手写策略对比 (Ctrl+Shift+R)</translation>
    </message>
    <message>
        <source>Run &amp;Scaling Sweep</source>
        <translation>运行规模扫描(&amp;S)</translation>
    </message>
    <message>
        <source>The checked strategies at every value of the chosen dimension, with fitted exponents</source>
        <translation>在所选维度的每个取值下运行勾选的策略，并给出拟合指数</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>Stop the sweep; finished runs are kept (Esc)</source>
        <translation>停止扫描；保留已完成的运行 (Esc)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Export C&amp;hart</source>
        <translation>导出图表(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Strategy Syntax</source>
        <translation>策略语法(&amp;S)</translation>
    </message>
    <message>
        <source>Strategy syntax</source>
        <translation>策略语法</translation>
    </message>
    <message>
        <source>&amp;About Checkpoint Lab</source>
        <translation>关于 Checkpoint Lab(&amp;A)</translation>
    </message>
    <message>
        <source>About &amp;Qt</source>
        <translation>关于 &amp;Qt</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Invalid scaling values</source>
        <translation>规模扫描取值无效</translation>
    </message>
    <message>
        <source> (at %1 = %2)</source>
        <translation>（%1 = %2 时）</translation>
    </message>
    <message>
        <source>Invalid configuration</source>
        <translation>配置无效</translation>
    </message>
    <message>
        <source>Fix these parameters first:
%1</source>
        <translation>请先修正这些参数：
%1</translation>
    </message>
    <message>
        <source>No strategy</source>
        <translation>没有策略</translation>
    </message>
    <message>
        <source>Check at least one strategy to run (include &quot;none&quot; as the baseline).</source>
        <translation>请至少勾选一个要运行的策略（包括作为基线的“none”）。</translation>
    </message>
    <message>
        <source>Invalid strategy</source>
        <translation>策略无效</translation>
    </message>
    <message>
        <source>These strategies do not fit this model:
%1</source>
        <translation>这些策略不适用于此模型：
%1</translation>
    </message>
    <message>
        <source>Sweep cannot fit</source>
        <translation>扫描放不下</translation>
    </message>
    <message>
        <source>%1%2

Predicted %3, available %4. Make the model smaller (width, sequence, batch, depth) or uncheck the hungriest strategies.</source>
        <translation>%1%2

预测需要 %3，可用 %4。请把模型调小（宽度、序列长度、批大小、深度），或取消勾选最耗内存的策略。</translation>
    </message>
    <message>
        <source>Sweep close to the memory limit</source>
        <translation>扫描接近内存上限</translation>
    </message>
    <message>
        <source>The largest checked strategy (%1) is predicted to need %2 of the %3 available on %4%5. The system may start swapping.

Run anyway?</source>
        <translation>勾选的策略中最大的（%1）预计需要 %2，而 %4 上可用 %3%5。系统可能开始使用交换空间。

仍要运行吗？</translation>
    </message>
    <message>
        <source>, its budget as the upper bound</source>
        <translation>，以其预算为上界</translation>
    </message>
    <message>
        <source>Sweep stopped: %1</source>
        <translation>扫描已停止：%1</translation>
    </message>
    <message numerus="yes">
        <source>

The %n run(s) finished before this are kept.</source>
        <translation>
            <numerusform>

此前完成的 %n 个运行已保留。</numerusform>
        </translation>
    </message>
    <message>
        <source>&amp;Projector Mode</source>
        <translation>投影模式(&amp;P)</translation>
    </message>
    <message>
        <source>Large fonts, thick lines and high-contrast charts for a class</source>
        <translation>大字体、粗线条和高对比度图表，适合课堂</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Open one results file, or several (this machine&apos;s and a server&apos;s, say) to compare them side by side</source>
        <translation>打开一个结果文件，或打开多个（例如本机的和服务器的）并排比较</translation>
    </message>
    <message>
        <source>A&amp;dd Results File…</source>
        <translation>添加结果文件(&amp;D)…</translation>
    </message>
    <message>
        <source>Open another results file beside those on screen, to compare them</source>
        <translation>在屏幕上已有结果旁再打开一个结果文件，以进行比较</translation>
    </message>
    <message>
        <source>Stop the sweep?</source>
        <translation>停止扫描？</translation>
    </message>
    <message numerus="yes">
        <source>A sweep is running; closing stops it. The %n run(s) measured so far are not saved.

Stop the sweep and close anyway?</source>
        <translation>
            <numerusform>扫描正在运行，关闭会停止它。目前已测量的 %n 次运行尚未保存。

仍要停止扫描并关闭吗？</numerusform>
        </translation>
    </message>
    <message>
        <source>Close without saving?</source>
        <translation>不保存就关闭？</translation>
    </message>
    <message>
        <source>The results on screen were measured here and are not saved.

Close anyway and lose them?</source>
        <translation>屏幕上的结果是在本机测量的，尚未保存。

仍要关闭并丢弃它们吗？</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <comment>a strategy and why it cannot run</comment>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Will it fit?</source>
        <translation>放得下吗？</translation>
    </message>
    <message>
        <source>Will It &amp;Fit?…</source>
        <translation>放得下吗(&amp;F)？…</translation>
    </message>
    <message>
        <source>A model at its real size on a GPU: which strategies fit, and how fast (Ctrl+Shift+F)</source>
        <translation>真实规模的模型放在一块 GPU 上：哪些策略放得下，速度如何（Ctrl+Shift+F）</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::MemoryEstimateLabel</name>
    <message>
        <source>&lt;br&gt;Memory limit %1: parameters, input and optimizer state alone (%2) do not fit, so every run will run out of memory.</source>
        <translation>&lt;br&gt;内存上限 %1：仅参数、输入和优化器状态（%2）就放不下，因此每个运行都会显存不足。</translation>
    </message>
    <message>
        <source>&lt;br&gt;Memory limit %1 leaves %2 for the step.</source>
        <translation>&lt;br&gt;内存上限 %1 给训练步留下 %2。</translation>
    </message>
    <message>
        <source>Predicted to run out of memory: %1; they will fail where they pass it and the others go on.</source>
        <translation>预计显存不足：%1；它们会在超限处失败，其他运行继续。</translation>
    </message>
    <message>
        <source>Every checked strategy is predicted to fit.</source>
        <translation>预计每个勾选的策略都放得下。</translation>
    </message>
    <message>
        <source>No schedule fits under it.</source>
        <translation>在此上限下没有调度放得下。</translation>
    </message>
    <message>
        <source>Predicted peak: &lt;b&gt;%1&lt;/b&gt; without checkpointing (step ≈ %2 ms)</source>
        <translation>预测峰值：不用检查点时 &lt;b&gt;%1&lt;/b&gt;（每步 ≈ %2 ms）</translation>
    </message>
    <message>
        <source>, &lt;b&gt;%1&lt;/b&gt; for the largest checked (%2)</source>
        <translation>，勾选中最大的（%2）为 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>; no schedule goes below %1.</source>
        <translation>；没有调度能低于 %1。</translation>
    </message>
    <message>
        <source>&lt;br&gt;Plus %1 of parameters, input and optimizer state; %2 available.</source>
        <translation>&lt;br&gt;另加参数、输入和优化器状态 %1；可用 %2。</translation>
    </message>
    <message>
        <source>Memory needed: — (fix the parameters)</source>
        <translation>所需内存：—（请修正参数）</translation>
    </message>
    <message>
        <source> &lt;i&gt;(updating…)&lt;/i&gt;</source>
        <translation> &lt;i&gt;（更新中…）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>Replayed from the measured costs of one block (%1 this model&apos;s shape), the same cost model the runner reports beside each measurement:
%2</source>
        <translation>根据一个块的实测代价回放得出（%1此模型的形状），与运行器在每次测量旁报告的代价模型相同：
%2</translation>
    </message>
    <message>
        <source>measured in %1 ms for</source>
        <translation>用 %1 ms 测量了</translation>
    </message>
    <message>
        <source>cached for</source>
        <translation>已缓存</translation>
    </message>
    <message>
        <source>Rough estimate: &lt;b&gt;%1&lt;/b&gt; without checkpointing</source>
        <translation>粗略估计：不用检查点时 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>, at most &lt;b&gt;%1&lt;/b&gt; for the largest checked (%2, its budget)</source>
        <translation>，勾选中最大的（%2，按其预算）最多 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>; %1 available.</source>
        <translation>；可用 %1。</translation>
    </message>
    <message>
        <source> &lt;i&gt;(not measured: it cannot fit)&lt;/i&gt;</source>
        <translation> &lt;i&gt;（未测量：放不下）&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &lt;i&gt;(measuring one block…)&lt;/i&gt;</source>
        <translation> &lt;i&gt;（正在测量一个块…）&lt;/i&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;Measuring one block failed: %1</source>
        <translation>&lt;br&gt;测量一个块失败：%1</translation>
    </message>
    <message>
        <source>From the model&apos;s shape alone (conservative), until one block of it has been measured</source>
        <translation>仅根据模型形状估计（保守），直到测量了其中一个块</translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;b&gt;Cannot fit:&lt;/b&gt; with the reference copies the runner keeps, the sweep needs %1. It will be refused.</source>
        <translation>&lt;br&gt;&lt;b&gt;放不下：&lt;/b&gt;加上运行器保留的参考副本，扫描需要 %1。它将被拒绝。</translation>
    </message>
    <message>
        <source>&lt;br&gt;Close to the limit: the system may swap.</source>
        <translation>&lt;br&gt;接近上限：系统可能使用交换空间。</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::ParameterPanel</name>
    <message>
        <source>&amp;Block</source>
        <translation>块类型(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Depth</source>
        <translation>深度(&amp;D)</translation>
    </message>
    <message>
        <source>Number of blocks L in the chain</source>
        <translation>链中的块数 L</translation>
    </message>
    <message>
        <source>&amp;Width</source>
        <translation>宽度(&amp;W)</translation>
    </message>
    <message>
        <source>Model dimension d</source>
        <translation>模型维度 d</translation>
    </message>
    <message>
        <source>&amp;Sequence</source>
        <translation>序列长度(&amp;S)</translation>
    </message>
    <message>
        <source>Tokens per sequence S</source>
        <translation>每个序列的 token 数 S</translation>
    </message>
    <message>
        <source>B&amp;atch</source>
        <translation>批大小(&amp;A)</translation>
    </message>
    <message>
        <source>Sequences per step B</source>
        <translation>每步的序列数 B</translation>
    </message>
    <message>
        <source>&amp;Heads</source>
        <translation>注意力头数(&amp;H)</translation>
    </message>
    <message>
        <source>Ke&amp;y/value heads</source>
        <translation>键值头数(&amp;Y)</translation>
    </message>
    <message>
        <source>same as heads</source>
        <translation>同注意力头数</translation>
    </message>
    <message>
        <source>Dropout on attention probabilities (transformer only); recompute must reproduce the same mask</source>
        <translation>注意力概率上的 dropout（仅 transformer）；重计算必须复现相同的掩码</translation>
    </message>
    <message>
        <source>Dro&amp;pout</source>
        <translation>Dro&amp;pout</translation>
    </message>
    <message>
        <source>De&amp;vice</source>
        <translation>设备(&amp;V)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>不限</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>The capacity of the device being modelled, in MiB (0 = no limit, up to %1 MiB): parameters, input and optimizer state count against it. A run whose step passes it fails with &quot;out of memory&quot; where it happened, in the table and on the charts, and the other runs go on. Set it between the totals of full and none to see none fail and full fit.</source>
        <translation>所模拟设备的容量，单位 MiB（0 = 不限，最多 %1 MiB）：参数、输入和优化器状态都计入其中。训练步超过它的运行会在发生处以“显存不足”失败（表格和图表中都会显示），其他运行继续。把它设在 full 与 none 的总量之间，就能看到 none 失败而 full 放得下。</translation>
    </message>
    <message>
        <source>&amp;Memory limit</source>
        <translation>内存上限(&amp;M)</translation>
    </message>
    <message>
        <source>Adam keeps two state tensors per parameter: more baseline memory</source>
        <translation>Adam 为每个参数保留两个状态张量：基础内存更多</translation>
    </message>
    <message>
        <source>&amp;Optimizer</source>
        <translation>优化器(&amp;O)</translation>
    </message>
    <message>
        <source>S&amp;eed</source>
        <translation>随机种子(&amp;E)</translation>
    </message>
    <message>
        <source>Weights, input and dropout</source>
        <translation>权重、输入和 dropout</translation>
    </message>
    <message>
        <source>&amp;Threads</source>
        <translation>线程数(&amp;T)</translation>
    </message>
    <message>
        <source>Intra-op threads; auto keeps LibTorch&apos;s default</source>
        <translation>算子内线程数；自动表示沿用 LibTorch 的默认值</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Warm-&amp;up</source>
        <translation>预热(&amp;U)</translation>
    </message>
    <message>
        <source>Untimed steps before the timed ones</source>
        <translation>计时步之前不计时的步数</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>&amp;Keep the previous step&apos;s gradients</source>
        <translation>保留上一步的梯度(&amp;K)</translation>
    </message>
    <message>
        <source>%1; the field kept %2. Set a limit in range (0 = none) to run.</source>
        <translation>%1；该字段保持为 %2。请设置范围内的上限（0 = 不限）后再运行。</translation>
    </message>
    <message>
        <source>The tutorial&apos;s protocol: none runs first from a clean start; every other strategy&apos;s measured step starts with the previous step&apos;s gradients still allocated and adds its own into them, as the tutorial&apos;s test does when it never clears them between its two runs. Savings then compare whole peaks.</source>
        <translation>教程的测量方式：none 先从干净的状态运行；其他每个策略被测的训练步开始时，上一步的梯度仍然占用内存，并把自己的梯度累加进去；教程的测试在两次运行之间从不清空梯度，就是这种情况。节省量于是比较的是整个峰值。</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>时间上限</translation>
    </message>
    <message>
        <source>caching (as CUDA)</source>
        <translation>缓存（同 CUDA）</translation>
    </message>
    <message>
        <source>system (malloc)</source>
        <translation>系统（malloc）</translation>
    </message>
    <message>
        <source>Freed blocks stay reserved for the next tensor, as on a GPU: the table shows the reserved peak beside the allocated one and the Reserved segments chart the fragmentation</source>
        <translation>释放的块仍为下一个张量预留，与 GPU 上一样：表格在已分配峰值旁显示预留峰值，“预留段”图表显示碎片</translation>
    </message>
    <message>
        <source>The C library&apos;s malloc: freed memory goes back to the system and is faulted in again; no reserved bytes, no segments</source>
        <translation>C 库的 malloc：释放的内存归还给系统，再次使用时重新缺页调入；没有预留字节，也没有段</translation>
    </message>
    <message>
        <source>The CPU allocator of the measured steps. caching follows the rules of CUDA&apos;s caching allocator, so it measures what a GPU would reserve (its reserved peak and segments) and keeps page faults out of the step times; system measures the C library&apos;s malloc, as LibTorch on the CPU does by default. On CUDA the device&apos;s own caching allocator serves either way.</source>
        <translation>所测训练步使用的 CPU 内存分配器。caching 遵循 CUDA 缓存分配器的规则，因此测量 GPU 会预留的量（预留峰值和各段），且步时间不含缺页；system 测量 C 库的 malloc，即 LibTorch 在 CPU 上的默认做法。在 CUDA 上，无论选哪一项，都由设备自己的缓存分配器分配显存。</translation>
    </message>
    <message>
        <source>Allo&amp;cator</source>
        <translation>分配器(&amp;C)</translation>
    </message>
    <message>
        <source>ffn: LayerNorm + MLP blocks (the seed&apos;s model); transformer: pre-LN attention + MLP blocks; llama: the Llama family&apos;s decoder layer (RMSNorm, rotary grouped-query attention, SwiGLU MLP)</source>
        <translation>ffn：LayerNorm + MLP 块（教程的模型）；transformer：pre-LN 注意力 + MLP 块；llama：Llama 系列的解码层（RMSNorm、带旋转位置编码的分组查询注意力、SwiGLU MLP）</translation>
    </message>
    <message>
        <source>Attention heads (transformer, llama); in a transformer they must divide the width</source>
        <translation>注意力头数（transformer、llama）；在 transformer 中必须整除宽度</translation>
    </message>
    <message>
        <source>Key/value heads of grouped-query attention (llama): &quot;same as heads&quot; (0) gives every head its own keys and values; fewer, which must divide the heads, shrink the key and value projections and the keys and values kept for backward</source>
        <translation>分组查询注意力的键/值头数（llama）：“同注意力头数”（0）表示每个头都有自己的键和值；更少的头数（必须整除注意力头数）会缩小键、值投影以及为反向保留的键和值</translation>
    </message>
    <message>
        <source>Head w&amp;idth</source>
        <translation>每头宽度(&amp;I)</translation>
    </message>
    <message>
        <source>Width of each attention head (llama): &quot;width / heads&quot; (0) divides the model width among the heads. Rotary embeddings turn pairs of features, so it must be even</source>
        <translation>每个注意力头的宽度（llama）：“宽度 / 头数”（0）表示把模型宽度平分给各个头。旋转位置编码成对旋转特征，所以它必须为偶数</translation>
    </message>
    <message>
        <source>width / heads</source>
        <translation>宽度 / 头数</translation>
    </message>
    <message>
        <source>M&amp;LP width</source>
        <translation>MLP 宽度(&amp;L)</translation>
    </message>
    <message>
        <source>Hidden width of the MLP: &quot;block&apos;s default&quot; (0) is 4 x width in ffn and transformer blocks and Llama&apos;s rule in llama blocks, 8/3 x width rounded up to a multiple of 256</source>
        <translation>MLP 的隐藏宽度：“块的默认值”（0）在 ffn 和 transformer 块中为 4 × 宽度，在 llama 块中按 Llama 的规则取 8/3 × 宽度并向上取整到 256 的倍数</translation>
    </message>
    <message>
        <source>block&apos;s default</source>
        <translation>块的默认值</translation>
    </message>
    <message>
        <source>Rotary base</source>
        <translation>旋转位置编码基数</translation>
    </message>
    <message>
        <source>Base of the rotary position embeddings (llama); larger bases turn more slowly, for longer contexts. It changes the values, not the memory</source>
        <translation>旋转位置编码的基数（llama）；基数越大旋转越慢，适合更长的上下文。它改变数值，不改变内存</translation>
    </message>
    <message>
        <source>RMSNorm epsilon</source>
        <translation>RMSNorm 的 epsilon</translation>
    </message>
    <message>
        <source>Epsilon of the RMSNorms: the llama blocks&apos; and the LM head&apos;s final norm</source>
        <translation>RMSNorm 的 epsilon：llama 块中的，以及 LM 头之前最终归一化的</translation>
    </message>
    <message>
        <source>&amp;Q/K/V bias</source>
        <translation>Q/K/V 偏置(&amp;Q)</translation>
    </message>
    <message>
        <source>Biases on the query, key and value projections (llama), as in the Qwen2 family</source>
        <translation>查询、键和值投影上的偏置（llama），与 Qwen2 系列相同</translation>
    </message>
    <message>
        <source>Atte&amp;ntion</source>
        <translation>注意力实现(&amp;N)</translation>
    </message>
    <message>
        <source>How attention is computed (transformer, llama)</source>
        <translation>注意力的计算方式（transformer、llama）</translation>
    </message>
    <message>
        <source>The S x S scores and probabilities are kept for backward: their memory grows with the square of the sequence</source>
        <translation>S × S 的分数和概率为反向保留：其内存随序列长度的平方增长</translation>
    </message>
    <message>
        <source>Queries and keys in chunks with an online softmax, as FlashAttention: only q, k, v, the output and each row&apos;s log-sum-exp are kept, the scores recomputed in backward. Runs without dropout</source>
        <translation>用在线 softmax 分块处理查询和键，与 FlashAttention 相同：只保留 q、k、v、输出和每行的 log-sum-exp，分数在反向时重新计算。不使用 dropout</translation>
    </message>
    <message>
        <source>LibTorch&apos;s scaled_dot_product_attention, in LibTorch 2.0 and later. Runs without dropout</source>
        <translation>LibTorch 的 scaled_dot_product_attention，需要 LibTorch 2.0 或更高版本。不使用 dropout</translation>
    </message>
    <message>
        <source>Attention chunk</source>
        <translation>注意力分块</translation>
    </message>
    <message>
        <source>Queries and keys per chunk of memory-efficient attention: smaller chunks hold smaller tiles of scores at a time</source>
        <translation>省内存注意力每块的查询数和键数：块越小，同时存在的分数块越小</translation>
    </message>
    <message>
        <source>Embeddin&amp;g and LM head</source>
        <translation>嵌入层与 LM 头(&amp;G)</translation>
    </message>
    <message>
        <source>A token embedding in front of the chain, and a final RMSNorm, an LM head and cross-entropy over the next tokens at its end, with this vocabulary. Off, the chain takes random activations and its loss is their sum, as the tutorial&apos;s</source>
        <translation>在链前加 token 嵌入层，在链末加最终 RMSNorm、LM 头和对下一个 token 的交叉熵，使用此词表大小。关闭时，链的输入是随机激活值，损失是它们的和，与教程相同</translation>
    </message>
    <message>
        <source>Tied embeddings</source>
        <translation>共享嵌入权重</translation>
    </message>
    <message>
        <source>The LM head reuses the embedding&apos;s weight: one vocab x width matrix and its gradient fewer</source>
        <translation>LM 头复用嵌入层的权重：少一个 词表大小 × 宽度 的矩阵及其梯度</translation>
    </message>
    <message>
        <source>Loss chunks</source>
        <translation>损失分块数</translation>
    </message>
    <message>
        <source>The LM head and loss in this many sequence chunks, each recomputed in backward, so the whole logits never exist at once; at most the sequence length</source>
        <translation>LM 头和损失按序列分成这么多块计算，每块在反向时重新计算，因此完整的 logits 从不同时存在；不能超过序列长度</translation>
    </message>
    <message>
        <source>P&amp;recision</source>
        <translation>精度(&amp;R)</translation>
    </message>
    <message>
        <source>The training precision: float32, bfloat16 or mixed-bf16 (mixed precision as training frameworks run it)</source>
        <translation>训练精度：float32、bfloat16 或 mixed-bf16（训练框架常用的混合精度）</translation>
    </message>
    <message>
        <source>Everything in 32-bit floats</source>
        <translation>全部使用 32 位浮点数</translation>
    </message>
    <message>
        <source>Weights, activations, gradients and optimizer state all in bf16: half the bytes</source>
        <translation>权重、激活值、梯度和优化器状态全部为 bf16：字节数减半</translation>
    </message>
    <message>
        <source>fp32 master weights and optimizer state, bf16 compute under autocast: the activations take half the bytes, the weights a bf16 copy besides their fp32 one</source>
        <translation>fp32 主权重和优化器状态，在 autocast 下以 bf16 计算：激活值的字节数减半，权重在 fp32 之外另有一份 bf16 副本</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::PlaybackBar</name>
    <message>
        <source>Back to the previous event (←)</source>
        <translation>回到上一个事件（←）</translation>
    </message>
    <message>
        <source>On to the next event (→)</source>
        <translation>前进到下一个事件（→）</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>速度：</translation>
    </message>
    <message>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <source>Drag to move through the step</source>
        <translation>拖动以在这一步中移动</translation>
    </message>
    <message>
        <source>1× plays the whole traced step (%1) in %2 s; 0.5× takes twice as long</source>
        <translation>1× 用 %2 秒播放整个记录的步（%1）；0.5× 用时加倍</translation>
    </message>
    <message>
        <source>Run a sweep to play one of its training steps</source>
        <translation>运行一次扫描，即可播放其中的一个训练步</translation>
    </message>
    <message>
        <source>Playing the traced step of %1</source>
        <translation>正在播放 %1 的记录步</translation>
    </message>
    <message>
        <source>No traced step to play yet</source>
        <translation>还没有可播放的记录步</translation>
    </message>
    <message>
        <source>Pause (Space)</source>
        <translation>暂停（空格）</translation>
    </message>
    <message>
        <source>Play the step in slow motion (Space)</source>
        <translation>慢动作播放这一步（空格）</translation>
    </message>
    <message>
        <source>%1 / %2 · %3</source>
        <translation>%1 / %2 · %3</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::ProgressStatus</name>
    <message>
        <source> — about %1 left</source>
        <translation> — 约剩 %1</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::RepeatsField</name>
    <message>
        <source>Timed steps per strategy, taken in interleaved rounds (one step of every strategy per round); medians are reported with their 95% interval, which needs at least %1</source>
        <translation>每个策略的计时步数，按交错轮次进行（每轮每个策略各跑一步）；报告中位数及其 95% 区间，区间至少需要 %1 个样本</translation>
    </message>
    <message>
        <source>auto</source>
        <comment>adaptive repeats</comment>
        <translation>自动</translation>
    </message>
    <message>
        <source>Adaptive repeats: keep taking rounds (at least %1) until every median&apos;s 95% interval is within ±%2 % of it, or the time limit passes; the status bar says which stopped it</source>
        <translation>自适应重复：持续进行计时轮次（至少 %1 轮），直到每个中位数的 95% 区间都在其 ±%2 % 以内，或达到时间上限；状态栏会说明是哪一个使其停止</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>Adaptive repeats stop after this many seconds of timed rounds, even when some interval is still wider than ±%1 % (from %2 to %3 s)</source>
        <translation>计时轮次进行这么多秒后，自适应重复即停止，即使某些区间仍宽于 ±%1 %（%2 到 %3 秒）</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::ResultsTableModel</name>
    <message>
        <source>optimal</source>
        <translation>最优</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Peak (MiB)</source>
        <translation>峰值 (MiB)</translation>
    </message>
    <message>
        <source>Predicted peak</source>
        <translation>预测峰值</translation>
    </message>
    <message>
        <source>Peak error</source>
        <translation>峰值误差</translation>
    </message>
    <message>
        <source>Activations (MiB)</source>
        <translation>激活值 (MiB)</translation>
    </message>
    <message>
        <source>Fastest (ms)</source>
        <translation>最快 (ms)</translation>
    </message>
    <message>
        <source>Predicted step</source>
        <translation>预测每步</translation>
    </message>
    <message>
        <source>Step error</source>
        <translation>每步误差</translation>
    </message>
    <message>
        <source>vs optimal</source>
        <translation>对比最优</translation>
    </message>
    <message>
        <source>Memory saved</source>
        <translation>节省内存</translation>
    </message>
    <message>
        <source>Time added</source>
        <translation>增加时间</translation>
    </message>
    <message>
        <source>Saved / added</source>
        <translation>节省 / 增加</translation>
    </message>
    <message>
        <source>Gradient check</source>
        <translation>梯度校验</translation>
    </message>
    <message>
        <source>Highest allocation above the step&apos;s start</source>
        <translation>高于训练步开始时的最高分配</translation>
    </message>
    <message>
        <source>The fastest timed repeat: on a shared machine the one least disturbed by other work</source>
        <translation>最快的一次计时重复：在共享机器上受其他任务干扰最少</translation>
    </message>
    <message>
        <source>Peak predicted before the run from the costs of one measured block (MiB)</source>
        <translation>运行前根据一个已测块的代价预测的峰值 (MiB)</translation>
    </message>
    <message>
        <source>Step time predicted from the costs of one measured block (ms)</source>
        <translation>根据一个已测块的代价预测的每步时间 (ms)</translation>
    </message>
    <message>
        <source>Prediction error in % of the measurement (+ predicted too high)</source>
        <translation>预测误差，占实测值的 %（+ 表示预测偏高）</translation>
    </message>
    <message>
        <source>How much slower than the optimal schedule within the same peak this run is predicted to be (negative would mean the planner is wrong)</source>
        <translation>预计此运行比相同峰值内的最优调度慢多少（为负说明规划器有误）</translation>
    </message>
    <message>
        <source>%1 (partial)</source>
        <translation>%1（不完整）</translation>
    </message>
    <message>
        <source>out of memory</source>
        <translation>显存不足</translation>
    </message>
    <message>
        <source>Largest difference from the `none` gradients: %1</source>
        <translation>与 `none` 梯度的最大差值：%1</translation>
    </message>
    <message>
        <source>Bitwise equal to the `none` gradients: every bit of every gradient is the same.</source>
        <translation>与 `none` 梯度逐位相同：每个梯度的每一位都一样。</translation>
    </message>
    <message>
        <source>The optimal schedule within this peak is predicted to take %1 ms</source>
        <translation>在此峰值内的最优调度预计耗时 %1 ms</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>The machine of the results file the run comes from (its file&apos;s name too when two files were made on the same machine)</source>
        <translation>该运行所属结果文件的机器（若两个文件来自同一台机器，还会附上文件名）</translation>
    </message>
    <message>
        <source>Timing: the timed steps of every strategy run after all traced steps, interleaved in rounds; this row&apos;s times arrive then</source>
        <translation>计时中：所有策略的计时步在全部记录步之后按交错轮次运行；此行的时间届时到达</translation>
    </message>
    <message>
        <source>Step (ms) [95% CI]</source>
        <translation>每步 (ms) [95% 区间]</translation>
    </message>
    <message>
        <source>CV</source>
        <translation>变异系数</translation>
    </message>
    <message>
        <source>GFLOP/s</source>
        <translation>GFLOP/s</translation>
    </message>
    <message>
        <source>Median of the timed repeats and, in brackets, its 95% distribution-free interval (order statistics of the samples, taken in interleaved rounds); * marks a min–max range of fewer than 6 samples</source>
        <translation>计时重复的中位数，方括号内是其 95% 无分布假设区间（样本的顺序统计量，样本取自交错轮次）；* 表示少于 6 个样本的最小–最大范围</translation>
    </message>
    <message>
        <source>Coefficient of variation of the timed repeats: their spread in % of the mean</source>
        <translation>计时重复的变异系数：离散程度占均值的 %</translation>
    </message>
    <message>
        <source>Matmul work of one step (forward, recompute, backward) over the median step time</source>
        <translation>一步的矩阵乘法计算量（前向、重计算、反向）除以每步时间中位数</translation>
    </message>
    <message>
        <source>Median step time against none&apos;s, with the range of the difference; ≈ 0 when the two intervals overlap (within noise)</source>
        <translation>每步时间中位数相对 none 的变化及差值范围；两个区间重叠时显示 ≈ 0（在噪声范围内）</translation>
    </message>
    <message>
        <source>Memory saved % per time added %; blank when the time added is within noise or not positive</source>
        <translation>每增加 1% 时间节省的内存 %；增加的时间在噪声范围内或不为正时留空</translation>
    </message>
    <message>
        <source>Reserved peak (MiB)</source>
        <translation>预留峰值 (MiB)</translation>
    </message>
    <message>
        <source>What the caching allocator held from the device at its peak, cached free blocks included: on a GPU, the memory that runs out. Whole, with parameters, input and optimizer state, where Peak counts only what the step added. — with the system allocator and in older files</source>
        <translation>缓存分配器在其峰值时从设备占用的内存，包括缓存的空闲块：在 GPU 上就是会耗尽的显存。按总量计，含参数、输入和优化器状态，而“峰值”只计训练步增加的部分。使用系统分配器时和较旧的文件中为 —</translation>
    </message>
    <message>
        <source>The forecast of the caching allocator&apos;s reserved peak, whole: %1 MiB</source>
        <translation>缓存分配器预留峰值的预测（总量）：%1 MiB</translation>
    </message>
    <message>
        <source>No reserved bytes: this run used the system allocator (malloc), which keeps no cache of its own. Choose the caching allocator to measure them.</source>
        <translation>没有预留字节：此运行使用系统分配器（malloc），它自己不保留缓存。选择缓存分配器即可测量。</translation>
    </message>
    <message>
        <source>No reserved bytes: the file was written before the lab counted the caching allocator&apos;s.</source>
        <translation>没有预留字节：该文件写于本实验统计缓存分配器的预留字节之前。</translation>
    </message>
    <message>
        <source>The caching allocator held %1 MiB from the device at its peak, cached free blocks included; %2 MiB when the step began. Its allocated peak: %3 MiB.</source>
        <translation>缓存分配器在峰值时从设备占用 %1 MiB（包括缓存的空闲块）；训练步开始时为 %2 MiB。其已分配峰值：%3 MiB。</translation>
    </message>
    <message>
        <source>Counted by CUDA&apos;s caching allocator.</source>
        <translation>由 CUDA 的缓存分配器统计。</translation>
    </message>
    <message>
        <source>Counted by the CPU allocator that follows the rules of CUDA&apos;s caching allocator.</source>
        <translation>由遵循 CUDA 缓存分配器规则的 CPU 分配器统计。</translation>
    </message>
    <message>
        <source>Forecast before the run: %1 MiB reserved at the peak.</source>
        <translation>运行前的预测：峰值时预留 %1 MiB。</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::ResultsView</name>
    <message>
        <source>Copy rows</source>
        <translation>复制行</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::ScheduleView</name>
    <message>
        <source>Each cell is a block (or a transformer sub-block); its colour and number say how often its forward runs in one training step. Click a row to select the run.</source>
        <translation>每个单元是一个块（或 transformer 子块）；颜色和数字表示一个训练步中它的前向运行了几次。点击一行可选中该运行。</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::StrategyList</name>
    <message>
        <source>Preset…</source>
        <translation>预设…</translation>
    </message>
    <message>
        <source>Check a named set of strategies, e.g. the seed&apos;s experiments</source>
        <translation>勾选一组命名的策略，例如教程的实验</translation>
    </message>
    <message>
        <source>custom, e.g. segments:5</source>
        <translation>自定义，例如 segments:5</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::StrategyTable</name>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Peak above the step&apos;s start and step time, predicted from the measured costs of one block before anything runs</source>
        <translation>高于训练步开始时的峰值和每步时间，在任何运行之前根据一个块的实测代价预测</translation>
    </message>
    <message>
        <source>Remove custom strategy</source>
        <translation>移除自定义策略</translation>
    </message>
    <message>
        <source>Halfway between the smallest feasible peak (%1) and the peak without checkpointing (%2); follows the model until you edit it</source>
        <translation>位于最小可行峰值（%1）与不用检查点的峰值（%2）的中间；在你编辑之前会随模型变化</translation>
    </message>
    <message>
        <source>%1 · %2 ms</source>
        <translation>%1 · %2 ms</translation>
    </message>
    <message>
        <source>Predicted peak %1 above the step&apos;s start (activations %2), step %3 ms</source>
        <translation>预测峰值比训练步开始时高 %1（激活值 %2），每步 %3 ms</translation>
    </message>
    <message>
        <source>Over the memory limit, which leaves %1 for the step: predicted to run out of memory (it will fail where it passes the limit; the other runs go on)</source>
        <translation>超过内存上限（给训练步留下 %1）：预计显存不足（它会在超限处失败，其他运行继续）</translation>
    </message>
    <message>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
</context>
<context>
    <name>ckptlab::ui::SweepWorker</name>
    <message>
        <source>Sweep failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <source>Unknown error</source>
        <translation>未知错误</translation>
    </message>
</context>
</TS>
