from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'package/_client_ops.py.jinja'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_kw_args = l_0_typed = l_0_init = l_0_listing = l_0_call = missing
    try:
        t_1 = environment.filters['py_docblock']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'py_docblock' found.")
    try:
        t_2 = environment.filters['py_ident']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'py_ident' found.")
    try:
        t_3 = environment.filters['py_str']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'py_str' found.")
    pass
    def macro(l_1_op):
        t_4 = []
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        pass
        def t_5(fiter):
            for l_2_a in fiter:
                if environment.getattr(l_2_a, 'required'):
                    yield l_2_a
        for l_2_a in t_5(environment.getattr(l_1_op, 'args')):
            _loop_vars = {}
            pass
            t_4.extend((
                '        ',
                str(t_2(environment.getattr(l_2_a, 'py_name'))),
                ': ',
                str(environment.getattr(l_2_a, 'type_hint')),
                ',\n',
            ))
        l_2_a = missing
        def t_6(fiter):
            for l_2_a in fiter:
                if (not environment.getattr(l_2_a, 'required')):
                    yield l_2_a
        for l_2_a in t_6(environment.getattr(l_1_op, 'args')):
            _loop_vars = {}
            pass
            t_4.extend((
                '        ',
                str(t_2(environment.getattr(l_2_a, 'py_name'))),
                ': ',
                str(environment.getattr(l_2_a, 'type_hint')),
                ' | None = None,\n',
            ))
        l_2_a = missing
        t_4.append(
            '        params: Mapping[str, Any] | None = None,\n        **more: Any,',
        )
        return concat(t_4)
    context.exported_vars.add('kw_args')
    context.vars['kw_args'] = l_0_kw_args = Macro(environment, macro, 'kw_args', ('op',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op):
        t_7 = []
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        pass
        t_7.append(
            '{ ',
        )
        for l_2_a in environment.getattr(l_1_op, 'args'):
            _loop_vars = {}
            pass
            t_7.extend((
                str(t_3(environment.getattr(l_2_a, 'py_name'))),
                ': ',
                str(t_2(environment.getattr(l_2_a, 'py_name'))),
                ', ',
            ))
        l_2_a = missing
        t_7.append(
            '}',
        )
        return concat(t_7)
    context.exported_vars.add('typed')
    context.vars['typed'] = l_0_typed = Macro(environment, macro, 'typed', ('op',), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_base, l_1_client):
        t_8 = []
        if l_1_op is missing:
            l_1_op = undefined("parameter 'op' was not provided", name='op')
        if l_1_base is missing:
            l_1_base = undefined("parameter 'base' was not provided", name='base')
        if l_1_client is missing:
            l_1_client = undefined("parameter 'client' was not provided", name='client')
        pass
        t_8.extend((
            '    def __init__(self, client: ',
            str(l_1_client),
            ') -> None:\n        super().__init__(\n            client,\n            CONTRACTS[',
            str(t_3(environment.getattr(l_1_op, 'operation_id'))),
            '],\n            parameters=(',
        ))
        for l_2_a in environment.getattr(l_1_op, 'params'):
            _loop_vars = {}
            pass
            t_8.extend((
                '(',
                str(t_3(environment.getattr(l_2_a, 'py_name'))),
                ', ',
                str(t_3(environment.getattr(l_2_a, 'name'))),
                ', ',
                str(t_3(environment.getattr(l_2_a, 'location'))),
            ))
            if (not environment.getattr(l_2_a, 'default_serialisation')):
                pass
                t_8.extend((
                    ', ',
                    str(t_3(environment.getattr(l_2_a, 'style'))),
                    ', ',
                    str(('True' if environment.getattr(l_2_a, 'explode') else 'False')),
                ))
            t_8.append(
                '), ',
            )
        l_2_a = missing
        t_8.append(
            '),\n',
        )
        if environment.getattr(l_1_op, 'listing'):
            pass
            if environment.getattr(l_1_op, 'body'):
                pass
                t_8.append(
                    '            body_fields=(',
                )
                for l_2_a in environment.getattr(l_1_op, 'body'):
                    _loop_vars = {}
                    pass
                    t_8.extend((
                        '(',
                        str(t_3(environment.getattr(l_2_a, 'py_name'))),
                        ', ',
                        str(t_3(environment.getattr(l_2_a, 'name'))),
                        '), ',
                    ))
                l_2_a = missing
                t_8.append(
                    '),\n',
                )
            t_8.extend((
                '            envelope_model=',
                str((str_join(('models.', t_2(environment.getattr(l_1_op, 'envelope_model')), )) if environment.getattr(l_1_op, 'envelope_model') else 'None')),
                ',\n            item_model=',
                str(('models.ITEM_MODEL' if environment.getattr(l_1_op, 'item_model') else 'None')),
                ',\n',
            ))
        else:
            pass
            t_8.append(
                '            body_fields=(',
            )
            for l_2_a in environment.getattr(l_1_op, 'body'):
                _loop_vars = {}
                pass
                t_8.extend((
                    '(',
                    str(t_3(environment.getattr(l_2_a, 'py_name'))),
                    ', ',
                    str(t_3(environment.getattr(l_2_a, 'name'))),
                    '), ',
                ))
            l_2_a = missing
            t_8.extend((
                '),\n            response_model=',
                str((str_join(('models.', t_2(environment.getattr(l_1_op, 'result_model')), )) if environment.getattr(l_1_op, 'result_model') else 'None')),
                ',\n',
            ))
        t_8.append(
            '        )\n',
        )
        return concat(t_8)
    context.exported_vars.add('init')
    context.vars['init'] = l_0_init = Macro(environment, macro, 'init', ('op', 'base', 'client'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_cls, l_1_base, l_1_client, l_1_aw):
        t_9 = []
        l_1_page_type = l_1_prefix = missing
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
        l_1_page_type = (str_join(('models.', t_2(environment.getattr(l_1_op, 'envelope_model')), )) if environment.getattr(l_1_op, 'envelope_model') else 'Any')
        l_1_prefix = ('Async' if l_1_aw else '')
        t_9.extend((
            'class ',
            str(t_2(l_1_cls)),
            '(',
            str(l_1_base),
            '):\n    ',
            str(t_1(environment.getattr(l_1_op, 'doc'), 4)),
            '\n\n',
            str(context.call((undefined(name='init') if l_0_init is missing else l_0_init), l_1_op, l_1_base, l_1_client)),
            '\n    ',
            str(('async ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 37 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'def page(\n        self,\n        *,\n        strict_items: bool | None = None,\n',
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> ',
            str((undefined(name='page_type') if l_1_page_type is missing else l_1_page_type)),
            ':\n        """One typed page; its own ``complete``, reasons and ``next_cursor`` say what is left."""\n        result: _Answer = ',
            str(('await ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 44 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'self._page(\n            self._prepare(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more, None), strict_items\n        )\n        return result\n\n    ',
            str(('async ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 49 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'def collect(\n        self,\n        *,\n        max_pages: int | None = None,\n        max_items: int | None = None,\n        deadline: float | None = None,\n        continuation: Continuation | str | None = None,\n        strict_items: bool | None = None,\n',
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> CollectResult:\n        """Follow continuations to the declared end or a limit; items plus completeness."""\n        return ',
            str(('await ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 60 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'self._collect(\n            self._prepare(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more, deadline),\n            limits(max_pages, max_items, deadline),\n            continuation,\n            strict_items,\n        )\n\n    def iter_items(\n        self,\n        *,\n        max_pages: int | None = None,\n        max_items: int | None = None,\n        deadline: float | None = None,\n        continuation: Continuation | str | None = None,\n        strict_items: bool | None = None,\n',
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> ',
            str((undefined(name='prefix') if l_1_prefix is missing else l_1_prefix)),
            'ItemStream:\n        """Items lazily (one page in memory); ``.result`` holds completeness at the end."""\n        return self._iter_items(\n            self._prepare(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more, deadline),\n            limits(max_pages, max_items, deadline),\n            continuation,\n            strict_items,\n        )\n\n    def iter_pages(\n        self,\n        *,\n        max_pages: int | None = None,\n        max_items: int | None = None,\n        deadline: float | None = None,\n        continuation: Continuation | str | None = None,\n        strict_items: bool | None = None,\n',
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> ',
            str((undefined(name='prefix') if l_1_prefix is missing else l_1_prefix)),
            'PageStream:\n        """Pages lazily; ``.result`` holds completeness at the end."""\n        return self._iter_pages(\n            self._prepare(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more, deadline),\n            limits(max_pages, max_items, deadline),\n            continuation,\n            strict_items,\n        )\n\n    stream = iter_items\n',
        ))
        return concat(t_9)
    context.exported_vars.add('listing')
    context.vars['listing'] = l_0_listing = Macro(environment, macro, 'listing', ('op', 'cls', 'base', 'client', 'aw'), False, False, False, context.eval_ctx.autoescape)
    def macro(l_1_op, l_1_cls, l_1_base, l_1_client, l_1_aw):
        t_10 = []
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
        l_1_result_type = (str_join(('models.', t_2(environment.getattr(l_1_op, 'result_model')), )) if environment.getattr(l_1_op, 'result_model') else 'Any')
        t_10.extend((
            'class ',
            str(t_2(l_1_cls)),
            '(',
            str(l_1_base),
            '):\n    ',
            str(t_1(environment.getattr(l_1_op, 'doc'), 4)),
            '\n\n',
            str(context.call((undefined(name='init') if l_0_init is missing else l_0_init), l_1_op, l_1_base, l_1_client)),
            '\n    ',
            str(('async ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 111 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'def __call__(\n        self,\n        *,\n',
            str(context.call((undefined(name='kw_args') if l_0_kw_args is missing else l_0_kw_args), l_1_op)),
            '\n    ) -> ',
            str((undefined(name='result_type') if l_1_result_type is missing else l_1_result_type)),
            ':\n        """Send the request; a declared error body raises its typed error (EvidenceRejected ...)."""\n        result: _Answer = ',
            str(('await ' if l_1_aw else cond_expr_undefined("the inline if-expression on line 117 in 'package/_client_ops.py.jinja' evaluated to false and no else section was defined."))),
            'self._call(',
            str(context.call((undefined(name='typed') if l_0_typed is missing else l_0_typed), l_1_op)),
            ', params, more)\n        return result\n',
        ))
        return concat(t_10)
    context.exported_vars.add('call')
    context.vars['call'] = l_0_call = Macro(environment, macro, 'call', ('op', 'cls', 'base', 'client', 'aw'), False, False, False, context.eval_ctx.autoescape)

blocks = {}
debug_info = '1=30&2=35&3=44&5=50&6=59&11=71&12=95&13=106&16=108&17=111&18=137&19=139&20=144&22=160&23=162&25=170&26=183&30=192&31=206&32=207&33=210&34=214&36=216&37=218&41=220&42=222&44=224&45=226&49=228&57=230&60=232&61=234&75=236&76=238&79=240&93=242&94=244&97=246&105=252&106=266&107=269&108=273&110=275&111=277&114=279&115=281&117=283'