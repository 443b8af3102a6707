from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'package/_client_ops.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_kw_args = l_0_overloads = l_0_typed = l_0_init = l_0_listing = l_0_call = missing
    try:
        t_1 = environment.filters['int']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'int' found.")
    try:
        t_2 = environment.filters['py_docblock']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'py_docblock' found.")
    try:
        t_3 = environment.filters['py_ident']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'py_ident' found.")
    try:
        t_4 = environment.filters['py_str']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'py_str' found.")
    try:
        t_5 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    def macro(l_1_op, l_1_variant):
        t_6 = []
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_variant is missing:
            l_1_variant = 'impl'
        pass
        def t_7(fiter):
            for l_2_a in fiter:
                if (environment.getattr(l_2_a, 'required') and (not ((l_1_variant == 'impl') and environment.getattr(l_2_a, 'spec_keyword')))):
                    yield l_2_a
        for l_2_a in t_7(environment.getattr(l_1_op, 'args')):
            _loop_vars = {}
            pass
            t_6.extend((
                '        ',
                str(t_3((environment.getattr(l_2_a, 'spec_keyword') if ((l_1_variant == 'spec') and environment.getattr(l_2_a, 'spec_keyword')) else environment.getattr(l_2_a, 'py_name')))),
                ': ',
                str(environment.getattr(l_2_a, 'type_hint')),
                ',\n',
            ))
        l_2_a = missing
        def t_8(fiter):
            for l_2_a in fiter:
                if ((not environment.getattr(l_2_a, 'required')) or ((l_1_variant == 'impl') and environment.getattr(l_2_a, 'spec_keyword'))):
                    yield l_2_a
        for l_2_a in t_8(environment.getattr(l_1_op, 'args')):
            _loop_vars = {}
            pass
            t_6.extend((
                '        ',
                str(t_3(environment.getattr(l_2_a, 'py_name'))),
                ': ',
                str(environment.getattr(l_2_a, 'type_hint')),
                ' | None = ',
                str(('None' if t_5(environment.getattr(l_2_a, 'default')) else t_1(environment.getattr(l_2_a, 'default')))),
                ',\n',
            ))
        l_2_a = missing
        t_6.append(
            '        params: Mapping[str, Any] | None = None,\n        **more: Any,',
        )
        return concat(t_6)
    context.exported_vars.add('kw_args')
    context.vars['kw_args'] = l_0_kw_args = Macro(environment, macro, 'kw_args', ('op', 'variant'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_name, l_1_head, l_1_ret, l_1_aw):
        t_9 = []
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_name is missing:
            l_1_name = undefined("parameter 'name' was not provided", name='name')
        if l_1_head is missing:
            l_1_head = undefined("parameter 'head' was not provided", name='head')
        if l_1_ret is missing:
            l_1_ret = undefined("parameter 'ret' was not provided", name='ret')
        if l_1_aw is missing:
            l_1_aw = undefined("parameter 'aw' was not provided", name='aw')
        pass
        if environment.getattr(l_1_op, 'overloaded'):
            pass
            for l_2_variant in ('py', 'spec'):
                _loop_vars = {}
                pass
                t_9.extend((
                    '    @overload\n    ',
                    str(('async ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 17 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
                    'def ',
                    str(l_1_name),
                    '(\n        self,\n        *,\n',
                    str(l_1_head),
                    str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op, l_2_variant, _loop_vars=_loop_vars)),
                    '\n    ) -> ',
                    str(l_1_ret),
                    ': ...\n\n',
                ))
            l_2_variant = missing
        return concat(t_9)
    context.exported_vars.add('overloads')
    context.vars['overloads'] = l_0_overloads = Macro(environment, macro, 'overloads', ('op', 'name', 'head', 'ret', 'aw'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op):
        t_10 = []
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        pass
        t_10.append(
            '{ ',
        )
        for l_2_a in environment.getattr(l_1_op, 'args'):
            _loop_vars = {}
            pass
            t_10.extend((
                str(t_4(environment.getattr(l_2_a, 'py_name'))),
                ': ',
                str(t_3(environment.getattr(l_2_a, 'py_name'))),
                ', ',
            ))
        l_2_a = missing
        t_10.append(
            '}',
        )
        return concat(t_10)
    context.exported_vars.add('typed')
    context.vars['typed'] = l_0_typed = Macro(environment, macro, 'typed', ('op',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_base, l_1_client):
        t_11 = []
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_base is missing:
            l_1_base = undefined("parameter 'base' was not provided", name='base')
        if l_1_client is missing:
            l_1_client = undefined("parameter 'client' was not provided", name='client')
        pass
        t_11.extend((
            '    def __init__(self, client: ',
            str(l_1_client),
            ') -> None:\n        super().__init__(\n            client,\n            CONTRACTS[',
            str(t_4(environment.getattr(l_1_op, 'operation_id'))),
            '],\n            parameters=(',
        ))
        for l_2_a in environment.getattr(l_1_op, 'params'):
            _loop_vars = {}
            pass
            t_11.extend((
                '(',
                str(t_4(environment.getattr(l_2_a, 'py_name'))),
                ', ',
                str(t_4(environment.getattr(l_2_a, 'name'))),
                ', ',
                str(t_4(environment.getattr(l_2_a, 'location'))),
            ))
            if (not environment.getattr(l_2_a, 'default_serialisation')):
                pass
                t_11.extend((
                    ', ',
                    str(t_4(environment.getattr(l_2_a, 'style'))),
                    ', ',
                    str(('True' if environment.getattr(l_2_a, 'explode') else 'False')),
                ))
            t_11.append(
                '), ',
            )
        l_2_a = missing
        t_11.append(
            '),\n',
        )
        if environment.getattr(l_1_op, 'listing'):
            pass
            if environment.getattr(l_1_op, 'body'):
                pass
                t_11.append(
                    '            body_fields=(',
                )
                for l_2_a in environment.getattr(l_1_op, 'body'):
                    _loop_vars = {}
                    pass
                    t_11.extend((
                        '(',
                        str(t_4(environment.getattr(l_2_a, 'py_name'))),
                        ', ',
                        str(t_4(environment.getattr(l_2_a, 'name'))),
                        '), ',
                    ))
                l_2_a = missing
                t_11.append(
                    '),\n',
                )
            t_11.extend((
                '            envelope_model=',
                str((str_join(('models.', t_3(environment.getattr(l_1_op, 'envelope_model')), )) if environment.getattr(l_1_op, 'envelope_model') else 'None')),
                ',\n            item_model=',
                str(('models.ITEM_MODEL' if environment.getattr(l_1_op, 'item_model') else 'None')),
                ',\n',
            ))
        else:
            pass
            t_11.append(
                '            body_fields=(',
            )
            for l_2_a in environment.getattr(l_1_op, 'body'):
                _loop_vars = {}
                pass
                t_11.extend((
                    '(',
                    str(t_4(environment.getattr(l_2_a, 'py_name'))),
                    ', ',
                    str(t_4(environment.getattr(l_2_a, 'name'))),
                    '), ',
                ))
            l_2_a = missing
            t_11.extend((
                '),\n            response_model=',
                str((str_join(('models.', t_3(environment.getattr(l_1_op, 'result_model')), )) if environment.getattr(l_1_op, 'result_model') else 'None')),
                ',\n',
            ))
        t_11.append(
            '        )\n',
        )
        return concat(t_11)
    context.exported_vars.add('init')
    context.vars['init'] = l_0_init = Macro(environment, macro, 'init', ('op', 'base', 'client'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_cls, l_1_base, l_1_client, l_1_aw):
        t_12 = []
        l_1_page_type = l_1_prefix = l_1_page_head = l_1_walk_head = missing
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_base is missing:
            l_1_base = undefined("parameter 'base' was not provided", name='base')
        if l_1_client is missing:
            l_1_client = undefined("parameter 'client' was not provided", name='client')
        if l_1_aw is missing:
            l_1_aw = undefined("parameter 'aw' was not provided", name='aw')
        pass
        l_1_page_type = (str_join(('models.', t_3(environment.getattr(l_1_op, 'envelope_model')), )) if environment.getattr(l_1_op, 'envelope_model') else 'Any')
        l_1_prefix = ('Async' if l_1_aw else '')
        t_12.extend((
            'class ',
            str(t_3(l_1_cls)),
            '(',
            str(l_1_base),
            '):\n    ',
            str(t_2(environment.getattr(l_1_op, 'doc'), 4)),
            '\n\n',
        ))
        t_13 = []
        pass
        t_13.append(
            '        strict_items: bool | None = None,\n',
        )
        l_1_page_head = (Markup if context.eval_ctx.autoescape else identity)(concat(t_13))
        t_14 = []
        pass
        t_14.append(
            '        max_pages: int | None = None,\n        max_items: int | None = None,\n        deadline: float | None = None,\n        continuation: Continuation | str | None = None,\n        strict_items: bool | None = None,\n',
        )
        l_1_walk_head = (Markup if context.eval_ctx.autoescape else identity)(concat(t_14))
        t_12.extend((
            str(context.call((undefined(name='init') if l_0_init is missing else l_0_init), l_1_op, l_1_base, l_1_client)),
            '\n',
            str(context.call((undefined(name='overloads') if l_0_overloads is missing else l_0_overloads), l_1_op, 'page', (undefined(name='page_head') if l_1_page_head is missing else l_1_page_head), (undefined(name='page_type') if l_1_page_type is missing else l_1_page_type), l_1_aw)),
            '\n    ',
            str(('async ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 63 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'def page(\n        self,\n        *,\n',
            str((undefined(name='page_head') if l_1_page_head is missing else l_1_page_head)),
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> ',
            str((undefined(name='page_type') if l_1_page_type is missing else l_1_page_type)),
            ':\n        """One typed page; its own ``complete``, reasons and ``next_cursor`` say what is left."""\n        result: _Answer = ',
            str(('await ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 69 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'self._page(\n            self._prepare(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more, None), strict_items\n        )\n        return result\n\n',
            str(context.call((undefined(name='overloads') if l_0_overloads is missing else l_0_overloads), l_1_op, 'collect', (undefined(name='walk_head') if l_1_walk_head is missing else l_1_walk_head), 'CollectResult', l_1_aw)),
            '\n    ',
            str(('async ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 75 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'def collect(\n        self,\n        *,\n',
            str((undefined(name='walk_head') if l_1_walk_head is missing else l_1_walk_head)),
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> CollectResult:\n        """Follow continuations to the declared end or a limit; items plus completeness."""\n        return ',
            str(('await ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 81 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'self._collect(\n            self._prepare(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more, deadline),\n            limits(max_pages, max_items, deadline),\n            continuation,\n            strict_items,\n        )\n\n',
            str(context.call((undefined(name='overloads') if l_0_overloads is missing else l_0_overloads), l_1_op, 'iter_items', (undefined(name='walk_head') if l_1_walk_head is missing else l_1_walk_head), str_join(((undefined(name='prefix') if l_1_prefix is missing else l_1_prefix), 'ItemStream', )), False)),
            '\n    def iter_items(\n        self,\n        *,\n',
            str((undefined(name='walk_head') if l_1_walk_head is missing else l_1_walk_head)),
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> ',
            str((undefined(name='prefix') if l_1_prefix is missing else l_1_prefix)),
            'ItemStream:\n        """Items lazily (one page in memory); ``.result`` holds completeness at the end."""\n        return self._iter_items(\n            self._prepare(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more, deadline),\n            limits(max_pages, max_items, deadline),\n            continuation,\n            strict_items,\n        )\n\n',
            str(context.call((undefined(name='overloads') if l_0_overloads is missing else l_0_overloads), l_1_op, 'iter_pages', (undefined(name='walk_head') if l_1_walk_head is missing else l_1_walk_head), str_join(((undefined(name='prefix') if l_1_prefix is missing else l_1_prefix), 'PageStream', )), False)),
            '\n    def iter_pages(\n        self,\n        *,\n',
            str((undefined(name='walk_head') if l_1_walk_head is missing else l_1_walk_head)),
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> ',
            str((undefined(name='prefix') if l_1_prefix is missing else l_1_prefix)),
            'PageStream:\n        """Pages lazily; ``.result`` holds completeness at the end."""\n        return self._iter_pages(\n            self._prepare(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more, deadline),\n            limits(max_pages, max_items, deadline),\n            continuation,\n            strict_items,\n        )\n\n    stream = iter_items\n',
        ))
        return concat(t_12)
    context.exported_vars.add('listing')
    context.vars['listing'] = l_0_listing = Macro(environment, macro, 'listing', ('op', 'cls', 'base', 'client', 'aw'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_cls, l_1_base, l_1_client, l_1_aw):
        t_15 = []
        l_1_result_type = missing
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_cls is missing:
            l_1_cls = undefined("parameter 'cls' was not provided", name='cls')
        if l_1_base is missing:
            l_1_base = undefined("parameter 'base' was not provided", name='base')
        if l_1_client is missing:
            l_1_client = undefined("parameter 'client' was not provided", name='client')
        if l_1_aw is missing:
            l_1_aw = undefined("parameter 'aw' was not provided", name='aw')
        pass
        l_1_result_type = (str_join(('models.', t_3(environment.getattr(l_1_op, 'result_model')), )) if environment.getattr(l_1_op, 'result_model') else 'Any')
        t_15.extend((
            'class ',
            str(t_3(l_1_cls)),
            '(',
            str(l_1_base),
            '):\n    ',
            str(t_2(environment.getattr(l_1_op, 'doc'), 4)),
            '\n\n',
            str(context.call((undefined(name='init') if l_0_init is missing else l_0_init), l_1_op, l_1_base, l_1_client)),
            '\n',
            str(context.call((undefined(name='overloads') if l_0_overloads is missing else l_0_overloads), l_1_op, '__call__', '', (undefined(name='result_type') if l_1_result_type is missing else l_1_result_type), l_1_aw)),
            '\n    ',
            str(('async ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 125 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'def __call__(\n        self,\n        *,\n',
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> ',
            str((undefined(name='result_type') if l_1_result_type is missing else l_1_result_type)),
            ':\n        """Send the request; a declared error body raises its typed error (EvidenceRejected ...)."""\n        result: _Answer = ',
            str(('await ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 131 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'self._call(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more)\n        return result\n',
        ))
        return concat(t_15)
    context.exported_vars.add('call')
    context.vars['call'] = l_0_call = Macro(environment, macro, 'call', ('op', 'cls', 'base', 'client', 'aw'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '3=42&4=49&5=58&7=64&8=73&13=87&14=100&15=102&17=107&20=111&21=114&26=121&27=145&28=156&31=158&32=161&33=187&34=189&35=194&37=210&38=212&40=220&41=233&45=242&46=256&47=257&48=260&49=264&51=272&54=278&61=280&62=282&63=284&66=286&67=289&69=291&70=293&74=295&75=297&78=299&81=302&82=304&88=306&92=308&93=311&96=313&102=315&106=317&107=320&110=322&118=328&119=342&120=345&121=349&123=351&124=353&125=355&128=357&129=359&131=361'